#include "identify_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace maptune {

IdentifyPanel::IdentifyPanel(QWidget* parent) : QWidget(parent), m_tree(new QTreeWidget), m_status(new QLabel)
{
    m_tree->setHeaderLabels({tr("Feature / attribute"), tr("Value")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    m_status->setWordWrap(true);
    m_status->setText(tr("Turn on Identify (toolbar) and click the map."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    layout->addWidget(m_tree, 1);
    connect(&m_watcher, &QFutureWatcher<QList<IdentifyLayerResult>>::finished, this, [this] {
        if (m_watcher.isCanceled() || m_cancel.isCancelled()) return;
        showResults(m_watcher.result());
    });
}

IdentifyPanel::~IdentifyPanel()
{
    m_cancel.cancel();
    m_watcher.waitForFinished();
}

void IdentifyPanel::identify(PreparedMapPtr map, const QStringList& layers, QPointF mapPoint, double unitsPerPixel,
                             double scaleDenom)
{
    m_cancel.cancel();  // the running query (if any) stops early and is ignored
    m_cancel = CancelToken();
    m_point = mapPoint;
    m_status->setText(tr("Identifying at %1, %2…").arg(mapPoint.x(), 0, 'f', 2).arg(mapPoint.y(), 0, 'f', 2));
    const IdentifyQuery query(std::move(map), layers, mapPoint, unitsPerPixel, scaleDenom);
    const CancelToken cancel = m_cancel;
    m_watcher.setFuture(QtConcurrent::run([query, cancel] { return query.run(cancel); }));
}

void IdentifyPanel::clear()
{
    m_tree->clear();
}

void IdentifyPanel::showResults(const QList<IdentifyLayerResult>& results)
{
    m_tree->clear();
    int count = 0;
    for (const IdentifyLayerResult& r : results) {
        auto* layerItem = new QTreeWidgetItem(m_tree, {r.layer, r.error.isEmpty() ? tr("%n feature(s)", "", r.features.size())
                                                                                : r.error});
        QFont bold = layerItem->font(0);
        bold.setBold(true);
        layerItem->setFont(0, bold);
        if (!r.error.isEmpty()) layerItem->setForeground(1, QColor(0xc0, 0x20, 0x20));
        for (const Feature& f : r.features) {
            ++count;
            auto* featureItem = new QTreeWidgetItem(layerItem, {tr("feature %1").arg(f.id), QString()});
            // The first attribute names the feature at a glance when collapsed.
            if (!f.values.isEmpty()) featureItem->setText(1, f.values.first());
            for (int i = 0; i < r.fields.size() && i < f.values.size(); ++i)
                new QTreeWidgetItem(featureItem, {r.fields[i], f.values[i]});
        }
    }
    m_tree->expandAll();
    m_status->setText(count ? tr("%n feature(s) at %1, %2", "", count).arg(m_point.x(), 0, 'f', 2).arg(m_point.y(), 0, 'f', 2)
                            : tr("Nothing at %1, %2").arg(m_point.x(), 0, 'f', 2).arg(m_point.y(), 0, 'f', 2));
    Q_EMIT finished(count);
}

}  // namespace maptune
