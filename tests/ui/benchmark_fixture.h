#pragma once
// What the Benchmark and raster advisor dock tests share: a served squares
// map and a raster map over a striped GeoTIFF, and Bench, a document on a
// served map wired to the Server, Timings and Benchmark panels as the main
// window wires them.

#include "ui_test_support.h"

#include "benchmark_panel.h"
#include "benchmark_settings.h"
#include "map_document.h"
#include "server_panel.h"
#include "timings_panel.h"

#include <gdal_priv.h>

#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>
#include <optional>
#include <vector>

namespace maptune::testing {

// Squares in Web Mercator metres, served over WMS.
inline const char* const kBenchSquares = R"MAP(MAP
  NAME "squares"
  SIZE 100 100
  EXTENT 0 0 1000 1000
  IMAGECOLOR 255 255 255
  PROJECTION "init=epsg:3857" END
  WEB METADATA "wms_enable_request" "*" "wms_srs" "EPSG:3857" END END
  LAYER
    NAME "red"
    TYPE POLYGON
    STATUS ON
    FEATURE WKT "POLYGON((100 600, 400 600, 400 900, 100 900, 100 600))" END
    CLASS STYLE COLOR 255 0 0 END END
  END
  LAYER
    NAME "frame"
    TYPE LINE
    STATUS ON
    FEATURE WKT "LINESTRING(10 10, 990 10, 990 990, 10 990, 10 10)" END
    CLASS STYLE COLOR 0 0 0 WIDTH 2 END END
  END
END
)MAP";

// A raster layer over a 2048 px square GeoTIFF in Web Mercator metres.
inline const char* const kStripedRasterMap = R"MAP(MAP
  NAME "ortho"
  SIZE 256 256
  EXTENT 0 0 2048 2048
  PROJECTION "init=epsg:3857" END
  WEB METADATA "wms_enable_request" "*" "wms_srs" "EPSG:3857" END END
  LAYER
    NAME "ortho"
    TYPE RASTER
    STATUS ON
    DATA "striped.tif"
  END
END
)MAP";

// GDAL's default GeoTIFF: strips, no compression, no overviews (the "before" of the field reports).
inline bool writeStripedTiff(const QString& path, int size)
{
    GDALDriver* gtiff = GetGDALDriverManager()->GetDriverByName("GTiff");
    if (!gtiff) return false;
    GDALDataset* ds = gtiff->Create(path.toUtf8().constData(), size, size, 1, GDT_Byte, nullptr);
    if (!ds) return false;
    double gt[6] = {0, 1, 0, double(size), 0, -1};
    ds->SetGeoTransform(gt);
    ds->SetProjection("EPSG:3857");
    std::vector<unsigned char> row(size);
    bool ok = true;
    for (int y = 0; y < size && ok; ++y) {
        for (int x = 0; x < size; ++x) row[x] = static_cast<unsigned char>((x ^ y) & 0xff);
        ok = ds->GetRasterBand(1)->RasterIO(GF_Write, 0, y, size, 1, row.data(), size, 1, GDT_Byte, 0, 0) == CE_None;
    }
    GDALClose(ds);
    return ok;
}

inline int overviewCount(const QString& path)
{
    GDALDataset* ds = GDALDataset::Open(path.toUtf8().constData(), GDAL_OF_RASTER | GDAL_OF_READONLY);
    if (!ds) return -1;
    const int n = ds->GetRasterBand(1)->GetOverviewCount();
    GDALClose(ds);
    return n;
}

// A served map, a document on it, the Server panel and the Benchmark panel, wired as the main window does.
struct Bench {
    QTemporaryDir dir;
    MapDocument document;
    ServerPanel server;
    TimingsPanel timings;
    std::unique_ptr<BenchmarkPanel> panel;

    bool open(const QByteArray& mapText = kBenchSquares)
    {
        const QString path = writeFile(dir.filePath("squares.map"), mapText);
        if (!document.open(path)) return false;
        server.setPort(0);
        server.setMapPath(path);
        QObject::connect(&server, &ServerPanel::requestServed, &timings, &TimingsPanel::addServedRequest);
        panel = std::make_unique<BenchmarkPanel>(&document, &server);
        QObject::connect(panel.get(), &BenchmarkPanel::requestServed, &timings, &TimingsPanel::addServedRequest);
        panel->setWorkDir(dir.filePath("work"));
        BenchmarkSettings* s = panel->settings();
        s->setConcurrency(2);
        s->setRequestCount(10);
        s->setRounds(2);
        s->setImageSize(64, 64);
        s->setWarmup(2);
        return true;
    }
    // The same server, only the red layer: a second configuration for an A/B run.
    QString redOnlyTemplate() const
    {
        return server.baseUrl() + QStringLiteral("?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=red&STYLES="
                                                 "&SRS=EPSG:3857&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=image/png");
    }
    // Runs to the end; the finished result.
    std::optional<ExperimentResult> runToEnd(int timeoutMs = 60000)
    {
        QSignalSpy done(panel.get(), &BenchmarkPanel::finished);
        if (const Status started = panel->run(); !started) {
            qWarning("run: %s", qPrintable(started.message()));
            return std::nullopt;
        }
        if (!done.wait(timeoutMs)) return std::nullopt;
        return done.first().at(0).value<ExperimentResult>();
    }
};

}  // namespace maptune::testing
