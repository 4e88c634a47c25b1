#pragma once
// The PostgreSQL connection pools a map's PostGIS layers draw from: one row
// per CONNECTION string with the layers using it and the pool's connections
// open, idle and in use, the acquires that waited and those that gave up.
// The pools are process-wide, so canvas renders and served requests show up
// alike. Connection strings are shown without their password.

#include "data/engine_context.h"
#include "mapfile/map_def.h"

#include <QTreeWidget>

namespace maptune {

class PoolStatusView : public QTreeWidget {
    Q_OBJECT
public:
    enum Column { ConnectionCol, LayersCol, OpenCol, IdleCol, InUseCol, WaitsCol, TimeoutsCol, ColumnCount };

    explicit PoolStatusView(QWidget* parent = nullptr);

    // One row per distinct connection of the map's PostGIS layers.
    void setMap(const MapDefPtr& map);
    // The pool the rows count (the workbench's, shared by canvas and server).
    void setEngineContext(EngineContextPtr context);
    int poolCount() const { return int(m_pools.size()); }

public Q_SLOTS:
    // Re-reads the pools' counters.
    void refresh();

private:
    struct Pool {
        QString conninfo;
        QStringList layers;
    };
    QList<Pool> m_pools;
    EngineContextPtr m_context = std::make_shared<const EngineContext>();
};

}  // namespace maptune
