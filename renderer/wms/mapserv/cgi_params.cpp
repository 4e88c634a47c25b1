#include "wms/mapserv/cgi_params.h"

#include "expr/expr_program.h"

#include <QRegularExpression>

#include <cmath>

namespace maptune {

namespace {

const QString kLoadForm = QStringLiteral("msCGILoadForm(): Web application error. ");

Error formError(const QString& message)
{
    return Error(kLoadForm + message);
}

// msStringSplit on ' ' as mapserv splits "+"-separated numbers: runs of
// spaces collapse, but a leading or trailing space makes an empty token.
QStringList splitSpaces(const QString& value)
{
    QStringList out = value.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (value.startsWith(QLatin1Char(' '))) out.prepend(QString());
    if (value.endsWith(QLatin1Char(' ')) && value.trimmed().size()) out.append(QString());
    return out;
}

// atof: leading number, 0 when there is none (mapserv does not check these).
double looseNumber(const QString& text)
{
    static const QRegularExpression leading(QStringLiteral("^\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?"));
    const auto m = leading.match(text);
    return m.hasMatch() ? m.captured(0).toDouble() : 0;
}

// GET_NUMERIC: the whole value must be a number.
Result<double> strictNumber(const QString& text)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v)) return Error(QStringLiteral("GET_NUMERIC(): Incorrect data type. "));
    return v;
}

Result<QList<double>> numbers(const QString& value, int count, const QString& name)
{
    const QStringList tokens = splitSpaces(value);
    if (tokens.size() != count) return formError(QStringLiteral("Not enough arguments for %1.").arg(name));
    QList<double> out;
    for (const QString& t : tokens) out << looseNumber(t);
    return out;
}

std::optional<CgiMode> modeNamed(const QString& name)
{
    static const QList<std::pair<const char*, CgiMode>> modes{
        {"BROWSE", CgiMode::Browse}, {"ZOOMIN", CgiMode::ZoomIn}, {"ZOOMOUT", CgiMode::ZoomOut}, {"MAP", CgiMode::Map},
        {"LEGEND", CgiMode::Legend}, {"LEGENDICON", CgiMode::LegendIcon}, {"REFERENCE", CgiMode::Reference},
        {"SCALEBAR", CgiMode::Scalebar}, {"COORDINATE", CgiMode::Coordinate}, {"QUERY", CgiMode::Query},
        {"NQUERY", CgiMode::NQuery}, {"ITEMQUERY", CgiMode::ItemQuery}, {"ITEMNQUERY", CgiMode::ItemNQuery},
        {"FEATUREQUERY", CgiMode::FeatureQuery}, {"FEATURENQUERY", CgiMode::FeatureNQuery},
        {"ITEMFEATUREQUERY", CgiMode::ItemFeatureQuery}, {"ITEMFEATURENQUERY", CgiMode::ItemFeatureNQuery},
        {"INDEXQUERY", CgiMode::IndexQuery}, {"TILE", CgiMode::Tile}, {"OWS", CgiMode::Ows}, {"WFS", CgiMode::Ows},
        {"MAPLEGEND", CgiMode::MapLegend}, {"MAPLEGENDICON", CgiMode::MapLegendIcon}};
    for (const auto& [n, m] : modes)
        if (name.compare(QLatin1String(n), Qt::CaseInsensitive) == 0) return m;
    return std::nullopt;
}

// MAPSHAPE / IMGSHAPE: WKT when it has a '(', else "x y x y ..." as one ring.
Result<Geometry> queryShape(const QString& value, const QString& name)
{
    if (value.contains(QLatin1Char('('))) {
        auto g = geometryFromWkt(value);
        if (!g) return formError(QStringLiteral("WKT parse failed for %1.").arg(name));
        return g;
    }
    const QStringList tokens = splitSpaces(value);
    if (tokens.size() % 2 != 0 || tokens.size() < 8) return formError(QStringLiteral("Malformed polygon geometry for %1.").arg(name));
    Geometry g;
    g.type = Geometry::Type::Polygon;
    g.partStart = {0};
    for (const QString& t : tokens) g.xy.push_back(looseNumber(t));
    return g;
}

}  // namespace

bool isCgiModeRequest(const WmsRequest& request)
{
    const std::optional<QString> mode = request.value(QStringLiteral("MODE"));
    return mode && mode->compare(QLatin1String("OWS"), Qt::CaseInsensitive) != 0
           && mode->compare(QLatin1String("WFS"), Qt::CaseInsensitive) != 0;
}

Result<CgiParams> parseCgiParams(const WmsRequest& request, const MapDef& map)
{
    CgiParams p;
    const int maxSize = map.maxSize > 0 ? map.maxSize : 4096;
    for (const auto& [rawName, value] : request.params) {
        if (value.isEmpty()) continue;
        const QString name = rawName.toLower();
        if (name == QLatin1String("mode")) {
            const auto mode = modeNamed(value);
            if (!mode) return Error(QStringLiteral("msCGISetMode(): Web application error. Invalid mode."));
            p.mode = *mode;
            p.modeName = value;
        } else if (name == QLatin1String("mapext")) {
            if (value.startsWith(QLatin1String("shape"), Qt::CaseInsensitive)) continue;
            auto v = numbers(value, 4, name);
            if (!v) return v.error();
            const Rect r{(*v)[0], (*v)[1], (*v)[2], (*v)[3]};
            p.mapExt = r;
            if (r.minx != r.maxx && r.miny != r.maxy) p.coordSource = p.queryCoordSource = CgiSource::UserBox;
        } else if (name == QLatin1String("imgext")) {
            auto v = numbers(value, 4, name);
            if (!v) return v.error();
            p.imgExt = {(*v)[0], (*v)[1], (*v)[2], (*v)[3]};
        } else if (name == QLatin1String("mapxy")) {
            if (value.startsWith(QLatin1String("shape"), Qt::CaseInsensitive)) continue;
            auto v = numbers(value, 2, name);
            if (!v) return v.error();
            p.mapPoint = {(*v)[0], (*v)[1]};
            if (p.coordSource == CgiSource::None) p.coordSource = p.queryCoordSource = CgiSource::UserPoint;
        } else if (name == QLatin1String("imgxy")) {
            if (p.coordSource == CgiSource::ImgPoint) continue;
            auto v = numbers(value, 2, name);
            if (!v) return v.error();
            if (std::abs((*v)[0]) > 2.0 * maxSize || std::abs((*v)[1]) > 2.0 * maxSize)
                return formError(QStringLiteral("Reference map coordinate out of range."));
            p.imgPoint = {(*v)[0], (*v)[1]};
            if (p.coordSource == CgiSource::None) p.coordSource = p.queryCoordSource = CgiSource::ImgPoint;
        } else if (name == QLatin1String("imgbox")) {
            auto v = numbers(value, 4, name);
            if (!v) return v.error();
            p.imgBox = {(*v)[0], (*v)[1], (*v)[2], (*v)[3]};
            if (p.imgBox.minx != p.imgBox.maxx && p.imgBox.miny != p.imgBox.maxy)
                p.coordSource = p.queryCoordSource = CgiSource::ImgBox;
        } else if (name == QLatin1String("mapshape") || name == QLatin1String("imgshape")) {
            auto g = queryShape(value, name);
            if (!g) return g.error();
            p.shape = std::move(g).value();
            p.queryCoordSource = name == QLatin1String("mapshape") ? CgiSource::UserShape : CgiSource::ImgShape;
        } else if (name == QLatin1String("imgsize") || name == QLatin1String("mapsize")) {
            auto v = numbers(value, 2, name);
            if (!v) return v.error();
            const int w = int((*v)[0]), h = int((*v)[1]);
            if (w <= 0 || h <= 0 || w > maxSize || h > maxSize) return formError(QStringLiteral("Image size out of range."));
            (name == QLatin1String("imgsize") ? p.imgWidth : p.mapWidth) = w;
            (name == QLatin1String("imgsize") ? p.imgHeight : p.mapHeight) = h;
        } else if (name == QLatin1String("buffer")) {
            auto v = strictNumber(value);
            if (!v) return v.error();
            p.buffer = *v;
            p.coordSource = CgiSource::Buffer;
            p.queryCoordSource = CgiSource::UserPoint;
        } else if (name == QLatin1String("scale") || name == QLatin1String("scaledenom")) {
            auto v = strictNumber(value);
            if (!v) return v.error();
            if (*v <= 0) return formError(QStringLiteral("Scale out of range."));
            p.scaleDenom = *v;
            p.coordSource = CgiSource::Scale;
            p.queryCoordSource = CgiSource::UserPoint;
        } else if (name.startsWith(QLatin1String("layers"))) {
            if (value.compare(QLatin1String("all"), Qt::CaseInsensitive) == 0) {
                p.layers.clear();
                for (const LayerDef& l : map.layers) p.layers << l.name;
            } else {
                p.layers << value.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            }
        } else if (name.startsWith(QLatin1String("layer"))) {
            p.layers << value;
        } else if (name == QLatin1String("qlayer")) {
            p.queryLayer = value;
        } else if (name == QLatin1String("slayer")) {
            p.selectLayer = value;
        } else if (name == QLatin1String("qitem")) {
            p.queryItem = value;
        } else if (name == QLatin1String("qstring")) {
            p.queryString = value;
        } else if (name == QLatin1String("qformat")) {
            p.queryFormat = value;
        } else if (name == QLatin1String("shapeindex") || name == QLatin1String("tileindex")) {
            auto v = strictNumber(value);
            if (!v) return v.error();
            (name == QLatin1String("shapeindex") ? p.shapeIndex : p.tileIndex) = int(*v);
        } else if (name == QLatin1String("searchmap")) {
            p.searchMap = true;
        } else if (name == QLatin1String("imagetype") || name == QLatin1String("map.imagetype") || name == QLatin1String("map_imagetype")) {
            // An optional check: the WEB's VALIDATION "imagetype" pattern.
            if (const auto pattern = map.web.validation.value(QStringLiteral("imagetype"))) {
                const QRegularExpression re = compilePosixRegex(*pattern, false);
                if (!re.isValid() || !re.match(value).hasMatch())
                    return Error(QStringLiteral("msCGILoadMap(): Web application error. Imagetype value fails to validate."));
            }
            p.imageType = value;
        } else if (name == QLatin1String("tilemode")) {
            if (value.compare(QLatin1String("gmap"), Qt::CaseInsensitive) != 0 && value.compare(QLatin1String("ve"), Qt::CaseInsensitive) != 0)
                return formError(QStringLiteral("Invalid tilemode. Use one of: gmap, ve"));
            p.tileMode = value.toLower();
        } else if (name == QLatin1String("tilesize")) {
            auto v = numbers(value, 2, name);
            if (!v) return v.error();
            const int w = int((*v)[0]), h = int((*v)[1]);
            if (w <= 0 || h <= 0 || w > maxSize || h > maxSize) return formError(QStringLiteral("Image size out of range."));
            p.tileWidth = w;
            p.tileHeight = h;
        } else if (name == QLatin1String("tile")) {
            p.tile = value;
            p.coordSource = CgiSource::Tile;
        }
    }
    if (p.mode == CgiMode::ZoomIn || p.mode == CgiMode::ZoomOut) p.mode = CgiMode::Browse;
    return p;
}

}  // namespace maptune
