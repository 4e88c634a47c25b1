#include "render/cairo_arc.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

constexpr double kTolerance = 0.1;  // cairo's default

double arcErrorNormalized(double angle)
{
    return 2.0 / 27.0 * std::pow(std::sin(angle / 4), 6) / std::pow(std::cos(angle / 4), 2);
}

// _arc_max_angle_for_tolerance_normalized: cairo's table, then a search.
double maxAngleForTolerance(double tolerance)
{
    static constexpr struct {
        double angle, error;
    } table[] = {
        {M_PI / 1.0, 0.0185185185185185036127},   {M_PI / 2.0, 0.000272567143730179811158},
        {M_PI / 3.0, 2.38647043651461047433e-05}, {M_PI / 4.0, 4.2455377443222443279e-06},
        {M_PI / 5.0, 1.11281001494389081528e-06}, {M_PI / 6.0, 3.72662000942734705475e-07},
        {M_PI / 7.0, 1.47783685574284411325e-07}, {M_PI / 8.0, 6.63240432022601149057e-08},
        {M_PI / 9.0, 3.2715520137536980553e-08},  {M_PI / 10.0, 1.73863223499021216974e-08},
        {M_PI / 11.0, 9.81410988043554039085e-09},
    };
    for (const auto& t : table)
        if (t.error < tolerance) return t.angle;
    int i = int(std::size(table)) + 2;
    double angle = 0;
    do {
        angle = M_PI / i++;
    } while (arcErrorNormalized(angle) > tolerance && i < 1000);
    return angle;
}

// _cairo_arc_segment on a circle of radius 1 stretched to rx, ry.
void segment(QPainterPath& path, double rx, double ry, double a, double b)
{
    const double sinA = std::sin(a), cosA = std::cos(a), sinB = std::sin(b), cosB = std::cos(b);
    const double h = 4.0 / 3.0 * std::tan((b - a) / 4.0);
    path.cubicTo(rx * (cosA - h * sinA), ry * (sinA + h * cosA), rx * (cosB + h * sinB), ry * (sinB - h * cosB), rx * cosB,
                 ry * sinB);
}

}  // namespace

int CairoArc::segmentsNeeded(double angle, double majorRadius)
{
    if (majorRadius <= 0) return 1;
    return int(std::ceil(std::fabs(angle) / maxAngleForTolerance(kTolerance / majorRadius)));
}

QPainterPath CairoArc::ellipse(double rx, double ry)
{
    QPainterPath path;
    path.moveTo(rx, 0);
    const int n = segmentsNeeded(M_PI, std::max(rx, ry));
    // Two halves, [0, pi] and [pi, 2 pi], each in n equal steps (the last from where the steps end).
    for (const auto& [from, to] : {std::pair{0.0, M_PI}, std::pair{M_PI, 2 * M_PI}}) {
        const double step = (to - from) / n;
        double a = from;
        for (int i = 0; i < n - 1; ++i, a += step) segment(path, rx, ry, a, a + step);
        segment(path, rx, ry, a, to);
    }
    return path;
}

}  // namespace maptune
