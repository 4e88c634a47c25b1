#include "raster/geo_transform.h"

#include "geo/map_view.h"

#include "mapfile/map_def.h"
#include "mapfile/processing.h"

#include <QDir>
#include <QFileInfo>

#include <gdal.h>

#include <cmath>

namespace maptune {

std::optional<GeoTransform> GeoTransform::inverted() const
{
    const double det = c[1] * c[5] - c[2] * c[4];
    if (std::fabs(det) < 1e-15) return std::nullopt;
    const double inv = 1.0 / det;
    GeoTransform out;
    out.c[1] = c[5] * inv;
    out.c[4] = -c[4] * inv;
    out.c[2] = -c[2] * inv;
    out.c[5] = c[1] * inv;
    out.c[0] = (c[2] * c[3] - c[0] * c[5]) * inv;
    out.c[3] = (-c[1] * c[3] + c[0] * c[4]) * inv;
    return out;
}

GeoTransform GeoTransform::forMapView(const MapView& view)
{
    GeoTransform gt;
    if (view.width < 2 || view.height < 2) {
        gt.c = {view.extent.minx, view.cellSizeX(), 0, view.extent.maxy, 0, -view.cellSizeY()};
        return gt;
    }
    const Rect c = view.centerExtent.isValid() ? view.centerExtent : pixelCentreExtent(view.extent, view.width, view.height);
    const double w = c.maxx - c.minx, h = c.maxy - c.miny;
    const double cx = c.minx + w * 0.5, cy = c.miny + h * 0.5;
    gt.c[1] = w / (view.width - 1);
    gt.c[2] = 0;
    gt.c[0] = cx - (view.width * 0.5) * gt.c[1];
    gt.c[4] = 0;
    gt.c[5] = -h / (view.height - 1);
    gt.c[3] = cy - (view.height * 0.5) * gt.c[5];
    return gt;
}

namespace {

bool readWorldFile(const QString& base, const QString& extension, GeoTransform& gt)
{
    const QByteArray b = base.toUtf8();
    const QByteArray e = extension.toUtf8();
    return GDALReadWorldFile(b.constData(), e.isEmpty() ? nullptr : e.constData(), gt.c.data()) != 0;
}

}  // namespace

GeoTransform GeoTransform::forRaster(GDALDatasetH ds, const LayerDef& layer, const ProcessingOptions& options,
                                     const QString& mapDir)
{
    const int xsize = GDALGetRasterXSize(ds);
    const int ysize = GDALGetRasterYSize(ds);
    const QString description = QString::fromUtf8(GDALGetDescription(ds));
    GeoTransform gt;
    gt.c = {0, 1, 0, double(ysize), 0, -1};

    const QString priority = options.value(QStringLiteral("EXTENT_PRIORITY"), QString());
    if (priority.left(5).compare(QLatin1String("WORLD"), Qt::CaseInsensitive) == 0) {
        QString base = description, extension = QStringLiteral("wld");
        if (const auto wf = options.value(QStringLiteral("WORLDFILE"))) {
            base = QDir(mapDir).absoluteFilePath(*wf);
            // A directory: the world file is named after the dataset there.
            if (!QFileInfo(base).fileName().contains(QLatin1Char('.')))
                base = QDir(base).absoluteFilePath(QFileInfo(description).fileName());
            else
                extension = QFileInfo(base).suffix();
        }
        GeoTransform w;
        if (readWorldFile(base, extension, w)) return w;
    }

    GeoTransform g;
    if (GDALGetGeoTransform(ds, g.c.data()) == CE_None) {
        if (g.c[5] == 1.0 && g.c[3] == 0.0) {
            g.c[5] = -1.0;
            g.c[3] = ysize;
        }
        return g;
    }
    GeoTransform w;
    if (!description.isEmpty() && readWorldFile(description, QStringLiteral("wld"), w)) return w;

    if (layer.extent.isValid() && !layer.data.isEmpty()) {
        const Rect& r = layer.extent;
        GeoTransform e;
        e.c = {r.minx, r.width() / xsize, 0, r.maxy, 0, (r.miny - r.maxy) / ysize};
        return e;
    }
    return gt;
}

}  // namespace maptune
