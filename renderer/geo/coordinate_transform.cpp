#include "geo/coordinate_transform.h"

#include "geo/proj_context.h"

#include <QHash>

#include <cmath>
#include <limits>

namespace maptune {

CoordinateTransform::~CoordinateTransform()
{
    if (m_pj) proj_destroy(m_pj);
}

Result<std::shared_ptr<CoordinateTransform>> CoordinateTransform::forThread(const Crs& from, const Crs& to)
{
    thread_local QHash<QByteArray, std::shared_ptr<CoordinateTransform>> cache;
    const QByteArray key = from.wkt() + '\n' + to.wkt();
    if (auto it = cache.constFind(key); it != cache.constEnd()) return *it;

    std::shared_ptr<CoordinateTransform> t(new CoordinateTransform);
    if (from != to) {
        PJ_CONTEXT* ctx = threadProjContext();
        PJ* src = proj_create(ctx, from.wkt().constData());
        PJ* dst = proj_create(ctx, to.wkt().constData());
        PJ* op = (src && dst) ? proj_create_crs_to_crs_from_pj(ctx, src, dst, nullptr, nullptr) : nullptr;
        if (src) proj_destroy(src);
        if (dst) proj_destroy(dst);
        if (!op)
            return Error(QStringLiteral("no transformation from %1 to %2")
                             .arg(from.authId().isEmpty() ? QString::fromUtf8(from.definition()) : from.authId(),
                                  to.authId().isEmpty() ? QString::fromUtf8(to.definition()) : to.authId()));
        // The CRS WKTs are already in GIS order; normalising again keeps it so
        // even for CRSs whose WKT could not carry the axis swap.
        PJ* norm = proj_normalize_for_visualization(ctx, op);
        if (norm) {
            proj_destroy(op);
            op = norm;
        }
        t->m_pj = op;
    }
    if (cache.size() > 256) cache.clear();
    cache.insert(key, t);
    return t;
}

int CoordinateTransform::transform(double* x, double* y, int count, int stride) const
{
    if (!m_pj || count <= 0) return 0;
    const size_t step = sizeof(double) * stride;
    proj_trans_generic(m_pj, PJ_FWD, x, step, count, y, step, count, nullptr, 0, 0, nullptr, 0, 0);
    int failed = 0;
    for (int i = 0; i < count; ++i) {
        double& xi = x[i * stride];
        double& yi = y[i * stride];
        if (!std::isfinite(xi) || !std::isfinite(yi)) {
            xi = yi = HUGE_VAL;
            ++failed;
        }
    }
    return failed;
}

Rect CoordinateTransform::transformBounds(const Rect& r) const
{
    if (!m_pj) return r;
    constexpr int n = 21;
    double xs[4 * n], ys[4 * n];
    for (int i = 0; i < n; ++i) {
        const double t = double(i) / (n - 1);
        xs[i] = r.minx + t * r.width(); ys[i] = r.miny;
        xs[n + i] = r.minx + t * r.width(); ys[n + i] = r.maxy;
        xs[2 * n + i] = r.minx; ys[2 * n + i] = r.miny + t * r.height();
        xs[3 * n + i] = r.maxx; ys[3 * n + i] = r.miny + t * r.height();
    }
    transform(xs, ys, 4 * n);
    Rect out{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
             std::numeric_limits<double>::lowest(), std::numeric_limits<double>::lowest()};
    for (int i = 0; i < 4 * n; ++i) {
        if (xs[i] == HUGE_VAL) continue;
        out.minx = std::min(out.minx, xs[i]);
        out.maxx = std::max(out.maxx, xs[i]);
        out.miny = std::min(out.miny, ys[i]);
        out.maxy = std::max(out.maxy, ys[i]);
    }
    return out;
}

}  // namespace maptune
