#pragma once
// The Identify dock: runs an IdentifyQuery on a worker thread and shows the
// result as a tree, layer → feature → attribute/value. A newer click cancels
// and supersedes the query in flight.

#include "render/identify_query.h"

#include <QFutureWatcher>
#include <QWidget>

class QLabel;
class QTreeWidget;

namespace maptune {

class IdentifyPanel : public QWidget {
    Q_OBJECT
public:
    explicit IdentifyPanel(QWidget* parent = nullptr);
    ~IdentifyPanel() override;

    QTreeWidget* tree() const { return m_tree; }
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
    QFutureWatcher<QList<IdentifyLayerResult>> m_watcher;
    CancelToken m_cancel;
    QPointF m_point;
};

}  // namespace maptune
