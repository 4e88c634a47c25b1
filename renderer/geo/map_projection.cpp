#include "geo/map_projection.h"
#include "mapfile/map_def.h"

#include "geo/coordinate_transform.h"
#include "mapfile/map_paths.h"

#include <QFile>
#include <QPointF>
#include <QRegularExpression>
#include <QTextStream>

#include <cmath>
#include <optional>
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

std::optional<QPointF> horizonPoint(const CoordinateTransform& t, QPointF good, QPointF bad)
{
    while (std::abs(good.x() - bad.x()) + std::abs(good.y() - bad.y()) > 0.01) {
        const QPointF mid = (good + bad) * 0.5;
        double x = mid.x(), y = mid.y();
        const bool ok = t.transform(&x, &y, 1) == 0;
        if (mid == (ok ? good : bad)) return std::nullopt;  // no progress left in doubles
        (ok ? good : bad) = mid;
    }
    double x = good.x(), y = good.y();
    if (t.transform(&x, &y, 1) != 0) return std::nullopt;
    return QPointF(x, y);
}

Rect projectRect(const Crs& from, const Crs& to, const Rect& r)
{
    // A pair that does not transform keeps the box as it is.
    const std::shared_ptr<CoordinateTransform> t = CoordinateTransform::forThread(from, to).valueOr(nullptr);
    if (!t || t->isIdentity()) return r;
    // msProjectRectAsPolygon: a ring of 100 steps along each edge -- bottom,
    // right, top, left -- then back along the diagonal, so that a projection
    // whose extreme values lie inside the box is still sampled.
    constexpr int kSamples = 100;
    const double dx = r.width() / kSamples, dy = r.height() / kSamples;
    std::vector<QPointF> ring;
    ring.reserve(kSamples * 5 + 3);
    if (dx != 0)
        for (int i = 0; i <= kSamples; ++i) ring.emplace_back(r.minx + i * dx, r.miny);
    if (dy != 0)
        for (int i = 1; i <= kSamples; ++i) ring.emplace_back(r.maxx, r.miny + i * dy);
    if (dx != 0)
        for (int i = kSamples - 1; i >= 0; --i) ring.emplace_back(r.minx + i * dx, r.maxy);
    if (dy != 0)
        for (int i = kSamples - 1; i >= 0; --i) ring.emplace_back(r.minx, r.miny + i * dy);
    if (dx != 0 && dy != 0)
        for (int i = kSamples - 2; i >= 1; --i) ring.emplace_back(r.minx + i * dx, r.miny + i * dy);
    if (ring.empty()) ring.emplace_back(r.minx, r.miny);

    std::vector<double> xs(ring.size()), ys(ring.size());
    for (size_t i = 0; i < ring.size(); ++i) xs[i] = ring[i].x(), ys[i] = ring[i].y();
    t->transform(xs.data(), ys.data(), int(xs.size()));
    Rect out{HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    const auto grow = [&out](double x, double y) {
        out.minx = std::min(out.minx, x);
        out.maxx = std::max(out.maxx, x);
        out.miny = std::min(out.miny, y);
        out.maxy = std::max(out.maxy, y);
    };
    // msProjectShapeLine: where the ring leaves or re-enters the target's
    // domain, the horizon point between the two samples counts too.
    for (size_t i = 0; i < ring.size(); ++i) {
        const bool ok = std::isfinite(xs[i]) && std::isfinite(ys[i]);
        if (ok) grow(xs[i], ys[i]);
        if (i == 0) continue;
        const bool wasOk = std::isfinite(xs[i - 1]) && std::isfinite(ys[i - 1]);
        if (ok == wasOk) continue;
        if (const auto edge = ok ? horizonPoint(*t, ring[i], ring[i - 1]) : horizonPoint(*t, ring[i - 1], ring[i]))
            grow(edge->x(), edge->y());
    }
    if (out.minx > out.maxx) return r;
    if (!from.isGeographic() && to.isGeographic()) {
        // From a polar projection to longitudes and latitudes, a rectangle
        // around the pole spans every longitude up to the pole (msProjectRect).
        if (r.minx <= 0 && r.miny <= 0 && r.maxx >= 0 && r.maxy >= 0) {
            double x = 0, y = 0;
            t->transform(&x, &y, 1);
            if (std::abs(std::abs(y) - 90) < 1e-8) out.minx = -180, out.maxx = 180, out.maxy = y;
        }
        // More than the whole world wide is the whole world.
        if (out.maxx - out.minx > 360.0) out.minx = -180, out.maxx = 180;
    }
    return out;
}

}  // namespace maptune
