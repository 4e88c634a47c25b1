/* pg-backend-cost -- the PostgreSQL backend's CPU per query for a SELECT list
 * over the bench's draw box (docs/PERFORMANCE.md, twenty-sixth session): what
 * the scan, the rows, the text column and the geometry's WKB each cost the
 * server, read as MapTune reads them (prepared, binary, single-row mode).
 *
 *   cc -O2 -o /tmp/pg-backend-cost bench/scripts/pg-backend-cost.c -I/usr/include/postgresql -lpq
 *   /tmp/pg-backend-cost "type::text, ST_AsBinary(geom,'NDR')" [RUNS]
 *   /tmp/pg-backend-cost "1, 1"
 *
 *   PGWHERE="pg_relation_filenode(...) = ..." /tmp/pg-backend-cost "ctid, xmin"
 *
 * Needs ../shared/bench/postgis-up (table roads, port 55432) on this machine:
 * the backend's CPU time comes from /proc. PGCONN overrides the connection
 * string; PGWHERE adds a condition (ANDed) to the box. Prints three rounds: backend CPU ms, wall ms and bytes per query. */
#include <libpq-fe.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WHERE " FROM roads WHERE geom && ST_MakeEnvelope($1::float8,$2::float8,$3::float8,$4::float8,4326)"

/* utime + stime of a process, in milliseconds. */
static double processCpuMs(int pid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE* f = fopen(path, "r");
    if (!f || !fgets(line, sizeof line, f)) {
        fprintf(stderr, "cannot read %s (is the server on this machine?)\n", path);
        exit(1);
    }
    fclose(f);
    const char* p = strrchr(line, ')');
    unsigned long utime = 0, stime = 0;
    /* After ") ": state and 10 more fields, then utime and stime. */
    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime);
    return (double)(utime + stime) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static double nowMs(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SELECT_LIST [RUNS]\n", argv[0]);
        return 2;
    }
    const int runs = argc > 2 ? atoi(argv[2]) : 400;
    const char* conninfo = getenv("PGCONN") ? getenv("PGCONN") : "host=127.0.0.1 port=55432 dbname=bench user=bench";
    PGconn* conn = PQconnectdb(conninfo);
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "%s", PQerrorMessage(conn));
        return 1;
    }
    char sql[4096];
    snprintf(sql, sizeof sql, "SELECT %s%s%s%s", argv[1], WHERE, getenv("PGWHERE") ? " AND " : "", getenv("PGWHERE") ? getenv("PGWHERE") : "");
    PGresult* prepared = PQprepare(conn, "q", sql, 0, NULL);
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK) {
        fprintf(stderr, "%s", PQerrorMessage(conn));
        return 1;
    }
    PQclear(prepared);
    const char* box[4] = {"139.72", "35.66", "139.78", "35.7087"};  /* a bench roads GetMap */
    const int backend = PQbackendPID(conn);
    for (int round = 0; round < 3; ++round) {
        const double cpu0 = processCpuMs(backend), t0 = nowMs();
        long bytes = 0;
        for (int i = 0; i < runs; ++i) {
            PQsendQueryPrepared(conn, "q", 4, box, NULL, NULL, 1);
            PQsetSingleRowMode(conn);
            PGresult* r;
            while ((r = PQgetResult(conn))) {
                if (PQresultStatus(r) == PGRES_SINGLE_TUPLE)
                    for (int c = 0; c < PQnfields(r); ++c) bytes += PQgetlength(r, 0, c);
                PQclear(r);
            }
        }
        printf("backend %.3f ms/query  wall %.3f ms/query  %ld bytes/query\n", (processCpuMs(backend) - cpu0) / runs,
               (nowMs() - t0) / runs, bytes / runs);
    }
    PQfinish(conn);
    return 0;
}
