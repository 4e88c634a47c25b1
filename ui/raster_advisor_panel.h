#pragma once
// The raster advisor dock: for each raster layer of the open map, its files
// (format, size, tiling, overviews, compression, bytes) and what they cost a
// WMS in plain words (RasterAdvisor), with "Build overviews" and "Convert to
// tiled GeoTIFF / COG" for the selected file. A conversion asks where to
// write (a save dialog in the data folder) and then offers to point the
// layer's DATA at the new file, an undoable edit of the editor's text.
// Inspection and actions run on a worker thread with a progress bar and
// Cancel; when an action is done the panel offers to re-run the benchmark to
// show the gain (the map before against the converted file, or the benchmark
// again after new overviews, compared with the run before), and asks for the
// Benchmark dock to come to the front when it does.

#include "core/result.h"
#include "loadtest/raster_advisor.h"
#include "mapfile/map_def.h"

#include <QFutureWatcher>
#include <QWidget>

#include <functional>

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

    // Where a conversion writes: given the suggested path (next to the source,
    // in the data folder), the chosen one, or empty when the user declines.
    // The default asks with a save dialog; tests answer without one.
    using OutputPathChooser = std::function<QString(const QString& suggestedPath)>;
    void setOutputPathChooser(OutputPathChooser chooser) { m_chooseOutput = std::move(chooser); }

    QTreeWidget* tree() const { return m_tree; }
    QProgressBar* progressBar() const { return m_progress; }
    QString detailsText() const;
    QPushButton* actionButton(RasterAction action) const;
    QPushButton* rerunButton() const { return m_rerun; }
    QPushButton* pointLayerButton() const { return m_pointLayer; }
    QString statusText() const;
    const QList<LayerRasterReport>& reports() const { return m_reports; }
    bool isBusy() const { return m_busy; }

public Q_SLOTS:
    // Inspects the open map's raster layers again (off the UI thread; inspected when done).
    void refresh();
    // Selects a file of a layer (the actions apply to the selected file).
    bool selectFile(const QString& layer, const QString& path);
    // Runs an action on the selected file; false when none is selected, one is
    // running or no output was chosen. output: where a conversion writes
    // (empty: asks through the OutputPathChooser).
    bool apply(RasterAction action, const QString& output = {});
    void cancel();
    // What the offer does: the benchmark that shows the last action's gain;
    // an error when there is nothing to re-run or the benchmark does not start.
    maptune::Status rerunBenchmark();
    // What "Point the layer at the new file" does: the converted layer's DATA
    // in the editor's text becomes the last converted file, as one undoable
    // edit (the file on disk changes when the user saves).
    maptune::Status pointLayerAtResult();

Q_SIGNALS:
    void inspected();
    void actionFinished(const maptune::RasterJobResult& result);
    // A re-run of the benchmark was asked for: its dock should come to the front.
    void showBenchmarkRequested();

private:
    void showReports();
    void updateButtons();
    void onActionDone();
    QTreeWidgetItem* selectedFileItem() const;
    // The file the layer reads now, resolved as the renderer does (empty for a tile index or no map).
    QString layerFile(const QString& layer) const;
    Status fail(const QString& message);

    MapDocument* m_document;
    BenchmarkPanel* m_benchmark;
    QTreeWidget* m_tree;
    QList<QPushButton*> m_actions;   // by RasterAction
    QPushButton* m_refresh;
    QPushButton* m_cancel;
    QPushButton* m_rerun;
    QPushButton* m_pointLayer;
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
    QString m_lastLayer, m_lastSourcePath, m_lastResultPath;
    OutputPathChooser m_chooseOutput;
};

}  // namespace maptune
