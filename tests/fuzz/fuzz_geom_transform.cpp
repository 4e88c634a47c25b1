// GEOMTRANSFORM expressions: parse, then evaluate on a few fixed shapes (a
// polygon with a hole, a line, points, nothing) with an attribute value
// from the input. The text is what would stand in a mapfile.

#include "fuzz_targets.h"

#include "data/geom_transform/shape_expression.h"
#include "render/style_geom_transform.h"

#include <QString>

namespace maptune::fuzz {

namespace {

Geometry make(Geometry::Type type, std::vector<double> xy, std::vector<int> parts)
{
    Geometry g;
    g.type = type;
    g.xy = std::move(xy);
    g.partStart = std::move(parts);
    return g;
}

}  // namespace

int geomTransform(const uint8_t* data, size_t size)
{
    if (size > 4096) return -1;  // long inputs only repeat what short ones reach
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    const Result<StyleGeomTransform> style = StyleGeomTransform::parse(text);
    check(style || !style.message().isEmpty(), "a refused style transform says why");
    const Result<ShapeExpression> e = ShapeExpression::parse(text);
    if (!e) {
        check(!e.message().isEmpty(), "a failed parse says why");
        return 0;
    }
    static const Geometry shapes[] = {
        make(Geometry::Type::Polygon, {0, 0, 40, 0, 40, 30, 0, 30, 0, 0, 10, 10, 20, 10, 20, 20, 10, 20, 10, 10}, {0, 5}),
        make(Geometry::Type::Line, {0, 0, 10, 5, 20, 0, 30, 5}, {0}),
        make(Geometry::Type::Point, {1, 1, 5, 5}, {0}),
        Geometry(),
    };
    const QStringList values{QStringLiteral("2.5"), QStringLiteral("-1"), QStringLiteral("nan")};
    for (const Geometry& g : shapes) {
        const Result<Geometry> out = e->evaluate(g, {&values, nullptr, 0.5, 0});
        if (!out) continue;
        check(out->xy.size() % 2 == 0, "a result has whole points");
        for (int p = 0; p < out->partCount(); ++p) check(out->partStart[size_t(p)] <= out->pointCount(), "parts lie in the points");
    }
    return 0;
}

}  // namespace maptune::fuzz
