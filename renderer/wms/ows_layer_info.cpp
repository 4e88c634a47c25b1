#include "wms/ows_layer_info.h"

#include "data/feature_source_factory.h"
#include "wms/wms_context.h"

#include "geo/coordinate_transform.h"
#include "geo/crs.h"

#include <QDir>
#include <QRegularExpression>
#include <QTextStream>

#include <QFile>

#include <gdal.h>
#include <ogr_api.h>

#include <cmath>

namespace maptune {

QString epsgCodes(const ProjectionDef& projection, const KeyValues* metadata, bool firstOnly)
{
    QString codes;
    if (metadata) codes = wmsMetadata(*metadata, QStringLiteral("srs")).value_or(QString()).trimmed();
    if (codes.isEmpty() && projection.isSet()) {
        const QString first = projection.args.first().trimmed();
        if (first.startsWith(QLatin1String("init=epsg:"), Qt::CaseInsensitive))
            codes = QStringLiteral("EPSG:") + first.mid(10);
        else if (first.startsWith(QLatin1String("EPSG:"), Qt::CaseInsensitive))
            codes = QStringLiteral("EPSG:") + first.mid(5);
    }
    if (firstOnly) codes = codes.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty);
    return codes;
}

namespace {

std::optional<Rect> rasterExtent(const QString& path)
{
    GDALDatasetH ds = GDALOpenEx(path.toUtf8().constData(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!ds) return std::nullopt;
    double gt[6];
    std::optional<Rect> out;
    if (GDALGetGeoTransform(ds, gt) == CE_None) {
        const double x0 = gt[0], y0 = gt[3];
        const double x1 = gt[0] + gt[1] * GDALGetRasterXSize(ds) + gt[2] * GDALGetRasterYSize(ds);
        const double y1 = gt[3] + gt[4] * GDALGetRasterXSize(ds) + gt[5] * GDALGetRasterYSize(ds);
        out = Rect{std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
    }
    GDALClose(ds);
    return out;
}

std::optional<Rect> vectorFileExtent(const QString& path)
{
    GDALDatasetH ds = GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!ds) return std::nullopt;
    std::optional<Rect> out;
    OGRLayerH layer = GDALDatasetGetLayer(ds, 0);
    OGREnvelope env;
    if (layer && OGR_L_GetExtent(layer, &env, TRUE) == OGRERR_NONE) out = Rect{env.MinX, env.MinY, env.MaxX, env.MaxY};
    GDALClose(ds);
    return out;
}

}  // namespace

std::optional<Rect> layerExtent(const MapDef& map, const LayerDef& layer)
{
    if (auto text = wmsMetadata(layer.metadata, QStringLiteral("extent"))) {
        const QStringList parts = text->simplified().split(QLatin1Char(' '));
        if (parts.size() == 4) {
            bool ok[4];
            Rect r{parts[0].toDouble(&ok[0]), parts[1].toDouble(&ok[1]), parts[2].toDouble(&ok[2]), parts[3].toDouble(&ok[3])};
            if (ok[0] && ok[1] && ok[2] && ok[3]) return r;
        }
    }
    if (layer.extent.isValid()) return layer.extent;
    if (layer.type == LayerType::Raster) {
        if (!layer.tileIndex.isEmpty()) {
            QString path = resolveDataPath(map, layer.tileIndex);
            if (!path.endsWith(QLatin1String(".shp"), Qt::CaseInsensitive) && !QFile::exists(path)) path += QStringLiteral(".shp");
            return vectorFileExtent(path);
        }
        if (layer.data.isEmpty()) return std::nullopt;
        return rasterExtent(resolveDataPath(map, layer.data));
    }
    QString error;
    auto source = openFeatureSource(map, layer, &error);
    if (!source) return std::nullopt;
    return source->extent();
}

}  // namespace maptune

namespace maptune {

std::optional<Crs> projectionCrs(const MapDef& map, const ProjectionDef& projection)
{
    if (!projection.isSet()) return std::nullopt;
    if (projection.args.size() == 1) {
        static const QRegularExpression initFile(QStringLiteral("^\\+?init=(.*[/\\\\].*):(\\w+)$"));
        const auto m = initFile.match(projection.args[0].trimmed());
        if (m.hasMatch()) {
            QFile file(QDir(map.baseDir().isEmpty() ? QDir::currentPath() : map.baseDir()).absoluteFilePath(m.captured(1)));
            if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return std::nullopt;
            const QString tag = QLatin1Char('<') + m.captured(2) + QLatin1Char('>');
            QTextStream in(&file);
            while (!in.atEnd()) {
                QString line = in.readLine().trimmed();
                if (!line.startsWith(tag)) continue;
                line = line.mid(tag.size());
                line.remove(QStringLiteral("<>"));
                ProjectionDef expanded;
                for (const QString& token : line.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                    expanded.args << (token.startsWith(QLatin1Char('+')) ? token.mid(1) : token);
                return Crs::fromProjection(expanded);
            }
            return std::nullopt;
        }
    }
    return Crs::fromProjection(projection);
}

Rect projectRect(const Crs& from, const Crs& to, const Rect& r)
{
    auto t = CoordinateTransform::forThread(from, to);
    if (!t || t->isIdentity()) return r;
    constexpr int kSamples = 100;
    std::vector<double> xs, ys;
    const double dx = r.width() / kSamples, dy = r.height() / kSamples;
    for (int i = 0; i <= kSamples; ++i) {
        const double x = r.minx + i * dx, y = r.miny + i * dy;
        xs.insert(xs.end(), {x, x, r.minx, r.maxx});
        ys.insert(ys.end(), {r.miny, r.maxy, y, y});
    }
    t->transform(xs.data(), ys.data(), int(xs.size()));
    Rect out{HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (size_t i = 0; i < xs.size(); ++i) {
        if (!std::isfinite(xs[i]) || !std::isfinite(ys[i])) continue;
        out.minx = std::min(out.minx, xs[i]);
        out.maxx = std::max(out.maxx, xs[i]);
        out.miny = std::min(out.miny, ys[i]);
        out.maxy = std::max(out.maxy, ys[i]);
    }
    return out.minx <= out.maxx ? out : r;
}

}  // namespace maptune
