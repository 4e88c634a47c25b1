#pragma once
// The in-process WMS that experiments measure over loopback HTTP: a
// MapRegistry + ServiceRouter + HttpServer on an ephemeral 127.0.0.1 port,
// serving any number of mapfiles (each under its base name), and the GetMap
// URL template for each. Used by `maptune-cli bench` and the Benchmark panel.

#include "core/result.h"
#include "loadtest/bbox_spec.h"
#include "loadtest/experiment.h"
#include "loadtest/map_variant.h"
#include "mapfile/map_def.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace maptune {

class HttpServer;
class MapRegistry;
class RequestObserver;
class ServiceRouter;

// The GetMap parameters of a benchmark URL template (not wms/GetMapParams, a
// parsed request).
struct BenchGetMapParams {
    QString layers;                           // empty: every named layer of the map
    QString srs;                              // empty: the map's EPSG code
    QString format = QStringLiteral("image/png");
};

class EmbeddedServer {
public:
    EmbeddedServer();
    ~EmbeddedServer();   // stops
    EmbeddedServer(const EmbeddedServer&) = delete;
    EmbeddedServer& operator=(const EmbeddedServer&) = delete;

    // Loads a mapfile to serve (before or after start()); its served name is
    // MapRegistry::nameForPath(path). An error (diagnostics, duplicate name) instead.
    Status addMap(const QString& path);
    // Listens on 127.0.0.1:0 with workers rendering threads (0: one per core).
    Status start(int workers = 0);
    void stop();
    bool isRunning() const;
    int port() const;
    // Told about every WMS request served from now on (null: nobody), on the
    // connection threads (see ServiceRouter::setObserver). The observer must
    // outlive the server's running time, or be cleared first.
    void setObserver(RequestObserver* observer);

    // The served map loaded from path; null when it is not served.
    MapDefPtr map(const QString& path) const;
    // http://127.0.0.1:PORT/<name>?SERVICE=WMS&...&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT};
    // an error when not started, the map is unknown or no SRS can be found.
    Result<QString> urlTemplate(const QString& path, const BenchGetMapParams& params) const;

    // "EPSG:6677" from PROJECTION "init=epsg:6677" / "EPSG:6677", else wms_srs / ows_srs.
    static QString mapSrs(const MapDef& map);
    static QString mapLayers(const MapDef& map);
    // "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=..&STYLES=&SRS=..&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=.."
    // with the params' defaults filled from the map (the SRS may stay empty).
    static QString getMapQuery(const MapDef& map, const BenchGetMapParams& params);
    // Random windows inside the map EXTENT, from the whole map down to 1/16 of it:
    // sets options.extent and options.res; an error when the map has no EXTENT.
    static Status defaultWindows(const MapDef& map, BboxOptions& options);

    // Serves every map variant (URL variants pass through) and turns them into
    // experiment configurations, in order. Starts the server when needed.
    Status configsFor(const QList<MapVariant>& variants, const BenchGetMapParams& params, QList<ExperimentConfig>& out,
                      int workers = 0);

private:
    std::unique_ptr<MapRegistry> m_registry;
    std::unique_ptr<ServiceRouter> m_router;
    std::unique_ptr<HttpServer> m_http;
    RequestObserver* m_observer = nullptr;
};

}  // namespace maptune
