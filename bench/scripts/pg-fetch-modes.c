/* pg-fetch-modes -- client CPU and wall time of one bench query read three ways
 * (docs/PERFORMANCE.md, twenty-third session): libpq's single-row mode (what
 * MapTune's PgRowStream uses), the whole result at once, and a binary cursor
 * whose next FETCH is pipelined while a batch is read.
 *
 *   cc -O2 -o /tmp/pg-fetch-modes bench/scripts/pg-fetch-modes.c -I/usr/include/postgresql -lpq
 *   /tmp/pg-fetch-modes single | whole | cursor [BATCH]
 *
 * Needs ../shared/bench/postgis-up (table roads, port 55432); PGCONN overrides
 * the connection string, CURSOR_TUPLE_FRACTION=1 plans the cursor for all rows. */
#include <libpq-fe.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The draw's SELECT as it was at the session's start (with the key column). */
#define COLUMNS "SELECT type::text, ST_AsBinary(geom,'NDR'), gid::text FROM roads WHERE geom && ST_MakeEnvelope($1,$2,$3,$4,4326)"
#define RUNS 200

static double clockMs(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const char* const params[4] = {"139.72", "35.66", "139.78", "35.71"};
static const Oid float8[4] = {701, 701, 701, 701};
static long checksum;

static long consume(PGresult* r)
{
    const int n = PQntuples(r);
    for (int i = 0; i < n; ++i) checksum += PQgetlength(r, i, 1) + PQgetvalue(r, i, 0)[0];
    PQclear(r);
    return n;
}

/* The results of one pipelined statement: its result, then the null that ends it. */
static long next(PGconn* c)
{
    const long n = consume(PQgetResult(c));
    PQgetResult(c);
    return n;
}

static long viaCursor(PGconn* c, int batch)
{
    char fetch[64];
    snprintf(fetch, sizeof fetch, "FETCH %d FROM maptune_c", batch);
    PQenterPipelineMode(c);
    PQsendQueryParams(c, "BEGIN", 0, NULL, NULL, NULL, NULL, 0);
    PQsendQueryParams(c, "DECLARE maptune_c BINARY NO SCROLL CURSOR FOR " COLUMNS, 4, float8, params, NULL, NULL, 1);
    PQsendQueryParams(c, fetch, 0, NULL, NULL, NULL, NULL, 1);
    PQsendFlushRequest(c);
    PQflush(c);
    next(c);
    next(c);
    long rows = 0;
    for (;;) {
        PGresult* r = PQgetResult(c);
        const int n = PQntuples(r);
        if (n == batch) { /* the next batch is on its way while this one is read */
            PQsendQueryParams(c, fetch, 0, NULL, NULL, NULL, NULL, 1);
            PQsendFlushRequest(c);
            PQflush(c);
        }
        rows += consume(r);
        PQgetResult(c);
        if (n < batch) break;
    }
    PQsendQueryParams(c, "COMMIT", 0, NULL, NULL, NULL, NULL, 0);
    PQpipelineSync(c);
    next(c);
    PQclear(PQgetResult(c)); /* the sync */
    PQexitPipelineMode(c);
    return rows;
}

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "single";
    const int batch = argc > 2 ? atoi(argv[2]) : 1000;
    const char* conninfo = getenv("PGCONN") ? getenv("PGCONN") : "host=127.0.0.1 port=55432 dbname=bench user=bench";
    PGconn* c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "%s", PQerrorMessage(c));
        return 1;
    }
    PQclear(PQprepare(c, "maptune_s", COLUMNS, 4, float8));
    if (getenv("CURSOR_TUPLE_FRACTION")) PQclear(PQexec(c, "SET cursor_tuple_fraction = 1.0"));
    const double cpu0 = clockMs(CLOCK_THREAD_CPUTIME_ID), wall0 = clockMs(CLOCK_MONOTONIC);
    long rows = 0;
    for (int k = 0; k < RUNS; ++k) {
        if (strcmp(mode, "single") == 0) {
            PQsendQueryPrepared(c, "maptune_s", 4, params, NULL, NULL, 1);
            PQsetSingleRowMode(c);
            for (PGresult* r; (r = PQgetResult(c));) rows += consume(r);
        } else if (strcmp(mode, "whole") == 0) {
            rows += consume(PQexecPrepared(c, "maptune_s", 4, params, NULL, NULL, 1));
        } else {
            rows += viaCursor(c, batch);
        }
    }
    printf("%s%s: client CPU %.3f ms, wall %.3f ms per query of %ld rows\n", mode,
           strcmp(mode, "cursor") == 0 ? " (pipelined FETCH)" : "", (clockMs(CLOCK_THREAD_CPUTIME_ID) - cpu0) / RUNS,
           (clockMs(CLOCK_MONOTONIC) - wall0) / RUNS, rows / RUNS);
    PQfinish(c);
    return checksum == -1;
}
