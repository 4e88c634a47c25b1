#pragma once
// The Identify dock: runs an IdentifyQuery on a worker thread and shows the
// result as a tree, layer → feature → attribute/value. A newer click cancels
// and supersedes the query in flight.

#include "render/identify_query.h"

#include <QFutureWatcher>
#include <QWidget>

class QLabel;
class QSpinBox;
class QTreeWidget;

namespace maptune {

class IdentifyPanel : public QWidget {
    Q_OBJECT
public:
    explicit IdentifyPanel(QWidget* parent = nullptr);
    ~IdentifyPanel() override;

    QTreeWidget* tree() const { return m_tree; }
    QSpinBox* toleranceBox() const { return m_tolerance; }
    // The click tolerance in pixels; unset: each layer's TOLERANCE (as GetFeatureInfo).
    std::optional<double> tolerancePixels() const;
    void setTolerancePixels(std::optional<double> pixels);
    // The features of the last identify, for the canvas to outline.
    QList<Geometry> resultGeometries() const;
    bool isBusy() const { return m_watcher.isRunning(); }

public Q_SLOTS:
    void identify(maptune::PreparedMapPtr map, const QStringList& layers, QPointF mapPoint, double unitsPerPixel,
                  double scaleDenom = 0);
    void showResults(const QList<maptune::IdentifyLayerResult>& results);
    void clear();

Q_SIGNALS:
    void finished(int featureCount);

private:
    QTreeWidget* m_tree;
    QLabel* m_status;
    QSpinBox* m_tolerance;
    QList<IdentifyLayerResult> m_results;
    QFutureWatcher<QList<IdentifyLayerResult>> m_watcher;
    CancelToken m_cancel;
    QPointF m_point;
};

}  // namespace maptune
