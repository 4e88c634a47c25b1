#include "pool_status_view.h"

#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/pg_conninfo.h"

#include <QHeaderView>

#include <algorithm>

namespace maptune {

PoolStatusView::PoolStatusView(QWidget* parent) : QTreeWidget(parent)
{
    setHeaderLabels({tr("Connection"), tr("Layers"), tr("Open"), tr("Idle"), tr("In use"), tr("Waits"),
                     tr("Timeouts")});
    headerItem()->setToolTip(WaitsCol, tr("Acquires that had to wait for a free connection"));
    headerItem()->setToolTip(TimeoutsCol, tr("Acquires that gave up waiting for a free connection"));
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    setColumnWidth(ConnectionCol, 130);
    setColumnWidth(LayersCol, 70);
    for (int c = OpenCol; c < ColumnCount; ++c) setColumnWidth(c, 46);
}

void PoolStatusView::setMap(const MapDefPtr& map)
{
    m_pools.clear();
    if (map) {
        for (const LayerDef& layer : map->layers) {
            if (layer.connectionType != ConnectionType::PostGIS) continue;
            auto it = std::find_if(m_pools.begin(), m_pools.end(),
                                   [&](const Pool& p) { return p.conninfo == layer.connection; });
            if (it == m_pools.end()) m_pools.append({layer.connection, {layer.name}});
            else it->layers << layer.name;
        }
    }
    clear();
    for (const Pool& pool : std::as_const(m_pools)) {
        auto* item = new QTreeWidgetItem(this);
        item->setText(ConnectionCol, redactPgConnInfo(pool.conninfo));
        item->setToolTip(ConnectionCol, item->text(ConnectionCol));
        item->setText(LayersCol, pool.layers.join(QStringLiteral(", ")));
        for (int c = OpenCol; c < ColumnCount; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
    refresh();
}

void PoolStatusView::setEngineContext(EngineContextPtr context)
{
    m_context = std::move(context);
    refresh();
}

void PoolStatusView::refresh()
{
    const PgConnectionPool& pools = m_context->pgPool();
    headerItem()->setToolTip(OpenCol, tr("Connections held by the pool, at most %1 per connection string")
                                          .arg(pools.maxPerKey()));
    for (int i = 0; i < m_pools.size() && i < topLevelItemCount(); ++i) {
        const PgPoolStats s = pools.stats(m_pools[i].conninfo);
        QTreeWidgetItem* item = topLevelItem(i);
        item->setText(OpenCol, QString::number(s.open));
        item->setText(IdleCol, QString::number(s.idle));
        item->setText(InUseCol, QString::number(s.inUse));
        item->setText(WaitsCol, QString::number(s.waits));
        item->setText(TimeoutsCol, QString::number(s.timeouts));
    }
}

}  // namespace maptune
