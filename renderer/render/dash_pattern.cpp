#include "render/dash_pattern.h"

#include <cmath>

namespace maptune {

DashPattern::DashPattern(QList<double> lengths, double offset) : m_lengths(std::move(lengths))
{
    if (m_lengths.size() % 2) m_lengths << m_lengths.last();
    for (double& l : m_lengths) {
        l = std::max(l, 0.0);
        m_period += l;
    }
    if (m_period > 0 && std::isfinite(m_period)) {
        m_offset = std::fmod(offset, m_period);
        if (m_offset < 0) m_offset += m_period;
    } else {
        m_period = 0;
    }
}

QList<QPolygonF> DashPattern::apply(const QList<QPolygonF>& parts) const
{
    if (!isValid()) return parts;
    QList<QPolygonF> dashes;
    for (const QPolygonF& part : parts) {
        if (part.size() < 2) continue;
        // Where in the pattern the part starts: dash index and what is left of it.
        int index = 0;
        double left = m_lengths[0], skip = m_offset;
        while (skip > 0) {
            if (skip < left) {
                left -= skip;
                break;
            }
            skip -= left;
            index = (index + 1) % int(m_lengths.size());
            left = m_lengths[index];
        }
        QPolygonF current;
        auto on = [&] { return index % 2 == 0; };
        if (on()) current << part.first();
        for (qsizetype i = 1; i < part.size(); ++i) {
            QPointF a = part[i - 1];
            const QPointF b = part[i];
            double segment = std::hypot(b.x() - a.x(), b.y() - a.y());
            // Walk the segment through as many dash boundaries as it crosses.
            while (segment > left) {
                a += (b - a) * (left / segment);
                segment -= left;
                if (on()) {
                    current << a;
                    dashes << current;
                    current.clear();
                } else {
                    current << a;
                }
                index = (index + 1) % int(m_lengths.size());
                left = m_lengths[index];
            }
            left -= segment;
            if (on()) current << b;
        }
        if (on() && current.size() > 1) dashes << current;
    }
    return dashes;
}

}  // namespace maptune
