#pragma once
// What the engine shares between the maps and requests of one program: the
// PostgreSQL connection pool and the cache of PostGIS rows drawn before. The program (the workbench, `maptune-cli
// serve`) makes one context and hands it to every map it prepares, so that
// canvas renders and served requests draw from the same connections; a map
// prepared on its own (a one-off render, a test) gets a context of its own.
// There is no process-wide pool: two contexts never share a connection.

#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/pg_row_cache.h"

#include <memory>
#include <optional>

namespace maptune {

class EngineContext {
public:
    // `pgRowCacheBytes` 0: no row cache (a one-off render would only fill
    // it). `pgWholeTableBytes`: PgRowCache's.
    explicit EngineContext(const PgPoolSettings& pg = {}, size_t pgRowCacheBytes = 0,
                           std::optional<size_t> pgWholeTableBytes = std::nullopt)
        : m_pool(std::make_shared<PgConnectionPool>(pg)),
          m_rowCache(std::make_shared<PgRowCache>(pgRowCacheBytes, pgWholeTableBytes))
    {
    }
    // What `serve` and the workbench keep by default.
    static constexpr size_t kDefaultPgRowCacheBytes = size_t(64) << 20;

    PgConnectionPool& pgPool() const { return *m_pool; }
    // For sources that must keep the pool alive while they hold a lease.
    const std::shared_ptr<PgConnectionPool>& sharedPgPool() const { return m_pool; }
    const std::shared_ptr<PgRowCache>& sharedPgRowCache() const { return m_rowCache; }

private:
    std::shared_ptr<PgConnectionPool> m_pool;
    std::shared_ptr<PgRowCache> m_rowCache;
};

using EngineContextPtr = std::shared_ptr<const EngineContext>;

}  // namespace maptune
