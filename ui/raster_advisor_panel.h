#pragma once
// The raster advisor dock: for each raster layer of the open map, its files
// (format, size, tiling, overviews, compression, bytes) and what they cost a
// WMS in plain words (RasterAdvisor), with "Build overviews" and "Convert to
// tiled GeoTIFF / COG" for the selected file. Inspection and actions run on
// a worker thread with a progress bar and Cancel; when an action is done the
// panel offers to re-run the benchmark to show the gain: the map as it is
// against the converted file, or the benchmark again after new overviews
// (compared with the run before).

#include "core/result.h"
#include "loadtest/raster_advisor.h"
#include "mapfile/map_def.h"

#include <QFutureWatcher>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace maptune {

class BenchmarkPanel;
class MapDocument;

class RasterAdvisorPanel : public QWidget {
    Q_OBJECT
public:
    // benchmark: where "Re-run the benchmark" goes (may be null: no offer).
    RasterAdvisorPanel(MapDocument* document, BenchmarkPanel* benchmark, QWidget* parent = nullptr);
    ~RasterAdvisorPanel() override;

    QTreeWidget* tree() const { return m_tree; }
    QProgressBar* progressBar() const { return m_progress; }
    QString detailsText() const;
    QPushButton* actionButton(RasterAction action) const;
    QPushButton* rerunButton() const { return m_rerun; }
    const QList<LayerRasterReport>& reports() const { return m_reports; }
    bool isBusy() const { return m_busy; }

public Q_SLOTS:
    // Inspects the open map's raster layers again (off the UI thread; inspected when done).
    void refresh();
    // Selects a file of a layer (the actions apply to the selected file).
    bool selectFile(const QString& layer, const QString& path);
    // Runs an action on the selected file; false when none is selected or one is running.
    bool apply(RasterAction action);
    void cancel();
    // What the offer does: the benchmark that shows the last action's gain;
    // an error when there is nothing to re-run or the benchmark does not start.
    maptune::Status rerunBenchmark();

Q_SIGNALS:
    void inspected();
    void actionFinished(const maptune::RasterJobResult& result);

private:
    void showReports();
    void updateButtons();
    void onActionDone();
    QTreeWidgetItem* selectedFileItem() const;

    MapDocument* m_document;
    BenchmarkPanel* m_benchmark;
    QTreeWidget* m_tree;
    QList<QPushButton*> m_actions;   // by RasterAction
    QPushButton* m_refresh;
    QPushButton* m_cancel;
    QPushButton* m_rerun;
    QProgressBar* m_progress;
    QLabel* m_details;   // the selected file's advice, in full
    QLabel* m_status;
    QFutureWatcher<QList<LayerRasterReport>> m_inspect;
    QFutureWatcher<RasterJobResult> m_action;
    CancelToken m_cancelToken;
    QList<LayerRasterReport> m_reports;
    bool m_busy = false;
    bool m_refreshAgain = false;
    // The last finished action, for the re-run offer.
    RasterAction m_lastAction = RasterAction::BuildOverviews;
    QString m_lastLayer, m_lastResultPath;
};

}  // namespace maptune
