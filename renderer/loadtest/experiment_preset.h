#pragma once
// Built-in experiments that reproduce the field reports on the user's own map:
//   lut      LUT on vs off (the layer's PROCESSING "LUT..." removed in B)
//   formats  the layer's raster as GeoTIFF tiled + overviews, striped,
//            JPEG-in-TIFF, JPEG 2000 and COG (made with GDAL, cached)
//   postgis  shapefile vs PostGIS (the layer's data loaded into a database),
//            or a PostGIS layer vs a GeoPackage export of it
//   url      MapTune vs another WMS (no map variant)
// build() writes the variant mapfiles into a work directory and returns them
// in order, the first being the baseline.

#include "core/result.h"
#include "loadtest/map_variant.h"
#include "loadtest/raster_converter.h"
#include "mapfile/map_def.h"
#include "trace/cancel_token.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace maptune {

enum class PresetKind { Lut, Formats, Postgis, Url };

struct PresetSpec {
    PresetKind kind = PresetKind::Lut;
    QString url;                         // Url: the other WMS's GetMap template (or a base URL)
    // "lut", "formats", "postgis", "url=http://..."; an error naming the choices otherwise.
    static Result<PresetSpec> parse(const QString& text);
    static QStringList names();          // lut formats postgis url=URL
};

struct PresetOptions {
    PresetSpec spec;
    QString layer;                       // the layer the preset is about
    QString workDir;                     // variant mapfiles and made rasters go here (created)
    QString pgConnInfo;                  // postgis: where to load the layer (libpq conninfo)
    QString pgTable;                     // postgis: table name; empty: maptune_bench_<layer>
    QList<RasterFormat> formats = RasterConverter::allFormats();   // formats preset
    bool includeOriginal = true;         // formats: the map as it is, first (the baseline)
};

struct PresetProgress {
    int step = 0, steps = 1;             // e.g. the format being made
    double fraction = 0;                 // of the whole preset, 0..1
    QString stage;                       // "COG: overviews"
};

struct PresetBuild {
    QList<MapVariant> variants;          // the first is the baseline
    QStringList notes;                   // skipped formats, reused copies, ...
    QString error;                       // nothing usable was built
    bool cancelled = false;
    bool ok() const { return error.isEmpty() && !cancelled && !variants.isEmpty(); }
};

class ExperimentPreset {
public:
    // map must have its path set (variants resolve the original's relative paths).
    static PresetBuild build(const MapDef& map, const PresetOptions& options, const CancelToken& cancel = {},
                             const std::function<void(const PresetProgress&)>& progress = {});

    // The PROCESSING directives without LUT / LUT_n (the B variant of "lut").
    static QStringList withoutLut(const QStringList& processing);
    static bool hasLut(const LayerDef& layer);
    // "geom from table using unique gid using srid=N" for a loaded table.
    static QString postgisData(const QString& geometryColumn, const QString& table, int srid,
                               const QString& uniqueColumn = QStringLiteral("gid"));
};

}  // namespace maptune
