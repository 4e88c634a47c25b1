#include "geo/map_projection.h"
#include "mapfile/map_def.h"

#include "geo/coordinate_transform.h"
#include "mapfile/map_paths.h"

#include <QFile>
#include <QRegularExpression>
#include <QTextStream>

#include <cmath>
#include <vector>

namespace maptune {

namespace {

// "<code> +proj=... <>" lines of a PROJ init file, as MapServer reads them.
std::optional<ProjectionDef> readInitFile(const QString& path, const QString& code, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        if (error) *error = QStringLiteral("cannot open projection file '%1': %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QString tag = QLatin1Char('<') + code + QLatin1Char('>');
    QTextStream in(&file);
    while (!in.atEnd()) {
        QString line = in.readLine().trimmed();
        if (!line.startsWith(tag)) continue;
        line = line.mid(tag.size());
        line.remove(QStringLiteral("<>"));
        ProjectionDef expanded;
        for (const QString& token : line.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            expanded.args << (token.startsWith(QLatin1Char('+')) ? token.mid(1) : token);
        return expanded;
    }
    if (error) *error = QStringLiteral("projection file '%1' has no entry <%2>").arg(path, code);
    return std::nullopt;
}

}  // namespace

Result<Crs> resolveProjection(const MapDef& map, const ProjectionDef& projection)
{
    if (!projection.isSet() || projection.isAuto()) return Crs::fromProjection(projection);
    if (projection.args.size() == 1) {
        static const QRegularExpression initFile(QStringLiteral("^\\+?init=(.*[/\\\\].*):(\\w+)$"));
        const auto m = initFile.match(projection.args[0].trimmed());
        if (m.hasMatch()) {
            QString error;
            const auto expanded = readInitFile(mapRelativePath(map, m.captured(1)), m.captured(2), &error);
            if (!expanded) return Error(error);
            return Crs::fromProjection(*expanded);
        }
    }
    return Crs::fromProjection(projection);
}

Rect projectRect(const Crs& from, const Crs& to, const Rect& r)
{
    // A pair that does not transform keeps the box as it is.
    const std::shared_ptr<CoordinateTransform> t = CoordinateTransform::forThread(from, to).valueOr(nullptr);
    if (!t || t->isIdentity()) return r;
    // msProjectRectAsPolygon: 100 steps along each edge and the diagonal.
    constexpr int kSamples = 100;
    std::vector<double> xs, ys;
    const double dx = r.width() / kSamples, dy = r.height() / kSamples;
    for (int i = 0; i <= kSamples; ++i) {
        const double x = r.minx + i * dx, y = r.miny + i * dy;
        xs.insert(xs.end(), {x, x, r.minx, r.maxx, x});
        ys.insert(ys.end(), {r.miny, r.maxy, y, y, y});
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
    if (out.minx > out.maxx) return r;
    // From a polar projection to longitudes and latitudes, a rectangle around
    // the pole spans every longitude up to the pole (msProjectRect).
    if (!from.isGeographic() && to.isGeographic() && r.minx <= 0 && r.miny <= 0 && r.maxx >= 0 && r.maxy >= 0) {
        double x = 0, y = 0;
        t->transform(&x, &y, 1);
        if (std::abs(std::abs(y) - 90) < 1e-8) out.minx = -180, out.maxx = 180, out.maxy = y;
    }
    return out;
}

}  // namespace maptune
