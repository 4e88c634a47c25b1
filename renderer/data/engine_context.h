#pragma once
// What the engine shares between the maps and requests of one program: the
// PostgreSQL connection pool. The program (the workbench, `maptune-cli
// serve`) makes one context and hands it to every map it prepares, so that
// canvas renders and served requests draw from the same connections; a map
// prepared on its own (a one-off render, a test) gets a context of its own.
// There is no process-wide pool: two contexts never share a connection.

#include "data/postgis/pg_connection_pool.h"

#include <memory>

namespace maptune {

class EngineContext {
public:
    explicit EngineContext(const PgPoolSettings& pg = {}) : m_pool(std::make_shared<PgConnectionPool>(pg)) {}

    PgConnectionPool& pgPool() const { return *m_pool; }
    // For sources that must keep the pool alive while they hold a lease.
    const std::shared_ptr<PgConnectionPool>& sharedPgPool() const { return m_pool; }

private:
    std::shared_ptr<PgConnectionPool> m_pool;
};

using EngineContextPtr = std::shared_ptr<const EngineContext>;

}  // namespace maptune
