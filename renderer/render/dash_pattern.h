#pragma once
// A STYLE PATTERN applied to polylines: the "on" stretches as separate
// polylines, to be stroked like any line. The pattern restarts at the start
// of every part, as AGG's dash generator (and Qt's dasher) do.

#include <QList>
#include <QPolygonF>

namespace maptune {

class DashPattern {
public:
    // `lengths` alternate on, off, on, ... in pixels (an odd count repeats
    // the last); `offset` is how far into the pattern each part starts.
    DashPattern(QList<double> lengths, double offset);

    bool isValid() const { return m_period > 0; }
    QList<QPolygonF> apply(const QList<QPolygonF>& parts) const;

private:
    QList<double> m_lengths;
    double m_offset = 0;
    double m_period = 0;
};

}  // namespace maptune
