#include "render/line_label_path.h"

#include <QLineF>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace maptune {

namespace {

constexpr double DegPerRad = 180.0 / M_PI;

// A polyline with the distance along it at every vertex.
class Walk {
public:
    explicit Walk(const QPolygonF& line) : m_line(line)
    {
        m_at.reserve(line.size());
        m_at << 0;
        for (qsizetype i = 1; i < line.size(); ++i) m_at << m_at.last() + QLineF(line[i - 1], line[i]).length();
    }
    const QPolygonF& line() const { return m_line; }
    double length() const { return m_at.last(); }
    double at(qsizetype vertex) const { return m_at[vertex]; }

    // Index of the end vertex of the (non-empty, where there is one) segment
    // holding distance `d`; distances off either end get the end segments.
    qsizetype segmentAt(double d) const
    {
        const qsizetype n = m_line.size();
        qsizetype i = std::lower_bound(m_at.cbegin() + 1, m_at.cend(), d) - m_at.cbegin();
        i = std::min(i, n - 1);
        while (i < n - 1 && m_at[i] <= m_at[i - 1]) ++i;
        while (i > 1 && m_at[i] <= m_at[i - 1]) --i;
        return i;
    }
    // The point `d` along the line. Before its start and past its end the
    // first and last segments carry on straight, as MapServer extrapolates
    // text a little longer than its line.
    QPointF pointAt(double d) const
    {
        const qsizetype i = segmentAt(d);
        const double len = m_at[i] - m_at[i - 1];
        if (len <= 0) return m_line[i];
        return m_line[i - 1] + (m_line[i] - m_line[i - 1]) * ((d - m_at[i - 1]) / len);
    }
    // The vertex ending the longest segment (the first of equals).
    qsizetype longestSegment() const
    {
        // Lengths as MapServer computes them, each on its own: differences
        // of the running totals round differently and break ties elsewhere.
        auto length = [this](qsizetype i) {
            const double dx = m_line[i].x() - m_line[i - 1].x(), dy = m_line[i].y() - m_line[i - 1].y();
            return std::sqrt(dx * dx + dy * dy);
        };
        qsizetype best = 1;
        double bestLength = length(1);
        for (qsizetype i = 2; i < m_line.size(); ++i)
            if (const double l = length(i); l > bestLength) best = i, bestLength = l;
        return best;
    }

private:
    QPolygonF m_line;
    QList<double> m_at;
};

double normalized(double degrees)
{
    degrees = std::fmod(degrees, 360.0);
    if (degrees <= -180) degrees += 360;
    if (degrees > 180) degrees -= 360;
    return degrees;
}

// The smaller angle between two directions, degrees.
double turn(double a, double b)
{
    const double d = std::abs(normalized(a - b));
    return std::min(d, 360 - d);
}

// AUTO's straight labels (msLineLabelPoint): the middle of the longest
// segment, or with REPEATDISTANCE an odd number of points spread evenly
// along the line, outermost pairs first and the centre last.
void pointsOnLine(const Walk& walk, const LineLabelPath::Params& p, LineLabelLayout& out)
{
    const QPolygonF& line = walk.line();
    const double total = walk.length();
    int count = p.repeatDistance > 0 ? int(total / p.repeatDistance) : 1;
    if (count <= 1) {
        const qsizetype j = walk.longestSegment();
        out.points << PathPoint{(line[j - 1] + line[j]) / 2, LineLabelPath::segmentAngle(line[j - 1], line[j], p.mode)};
        return;
    }
    if (count % 2 == 0) --count;
    const double spacing = total / count, centre = total / 2;
    auto add = [&](double d) {
        const qsizetype j = walk.segmentAt(d);
        out.points << PathPoint{walk.pointAt(d), LineLabelPath::segmentAngle(line[j - 1], line[j], p.mode)};
    };
    for (int k = (count - 1) / 2; k >= 1; --k) {
        add(centre + k * spacing);
        add(centre - k * spacing);
    }
    add(centre);
}

// Which way a text from `start` to `end` along the line reads: from the
// vertex starting its first segment to the one ending its last, as
// msLineLabelPath decides it (its vertices, not its end points).
bool readsForward(const Walk& walk, double start, double end)
{
    const QPolygonF& line = walk.line();
    const qsizetype last = line.size() - 1;
    qsizetype first = 0;
    while (first < last - 1 && walk.at(first + 1) < start) ++first;
    qsizetype final = last;
    if (end <= walk.length())
        while (final > 1 && walk.at(final - 1) > end) --final;
    return line[final].x() - line[first].x() > 0;
}

// One try at laying a text along a line: its characters, or the index of
// the first character that turns too sharply from its neighbour.
struct FollowAttempt {
    std::optional<QList<PathGlyph>> glyphs;
    qsizetype failedAt = -1;
    bool forward = true;  // characters run with the line's own direction
};

// The characters of a text starting `start` along the line. The text is laid
// along whichever direction of the line runs to the right, so that it never
// reads upside down.
FollowAttempt glyphsAt(const Walk& walk, double start, double textLength, const LineLabelPath::Params& p)
{
    const double total = walk.length();
    FollowAttempt attempt;
    attempt.forward = readsForward(walk, start, start + textLength);
    const bool forward = attempt.forward;
    auto at = [&](double d) { return walk.pointAt(forward ? d : total - d); };
    double d = forward ? start : total - start - textLength;
    const qsizetype n = p.advances.size();
    QList<QPointF> marks;  // where each character's baseline starts, and where the last ends
    marks.reserve(n + 1);
    for (qsizetype k = 0; k <= n; ++k) {
        marks << at(d);
        if (k < n) d += p.advances[k];
    }
    const double maxTurn = p.maxOverlapAngle > 0 ? p.maxOverlapAngle : 72;
    auto blank = [&](qsizetype k) { return k < p.spaces.size() && p.spaces[k]; };
    QList<PathGlyph> glyphs;
    glyphs.reserve(n);
    for (qsizetype k = 0; k < n; ++k) {
        const QPointF chord = marks[k + 1] - marks[k];
        // A character on a chord of no length (zero advance) keeps its neighbour's angle.
        const double angle = chord.isNull() && k > 0 ? glyphs.last().angle : std::atan2(-chord.y(), chord.x()) * DegPerRad;
        if (k > 0 && !blank(k) && !blank(k - 1) && turn(angle, glyphs.last().angle) > maxTurn) {
            attempt.failedAt = k;
            return attempt;
        }
        // Half the glyph size down the character's own vertical centres it on the line.
        const double a = angle / DegPerRad;
        glyphs << PathGlyph{marks[k] + QPointF(std::sin(a), std::cos(a)) * (p.glyphHeight / 2), angle};
    }
    attempt.glyphs = std::move(glyphs);
    return attempt;
}

// The next shift to try for a text whose character `fail` turned too sharply
// (compute_retry_offset in MapServer): further along the line so that the
// bend falls in the middle of the nearest space before that character (or
// the text begins at the bend), or back so that it falls in the nearest
// space after it (or the text ends there). Each candidate must pass the last
// shift tried and stay under its limit; the shorter wins, the later on a tie.
// 0: nothing left to try. Positive shifts move the text forward in reading order.
double retryShift(const LineLabelPath::Params& p, qsizetype fail, double tried, double maxLater, double maxEarlier)
{
    const QList<double>& a = p.advances;
    const qsizetype n = a.size();
    auto blank = [&](qsizetype k) { return k < p.spaces.size() && p.spaces[k]; };
    tried = std::abs(tried);

    double later = 0;
    bool laterFound = false;
    for (qsizetype i = 1;; ++i) {
        if (fail - i - 1 >= 0) {
            later += a[fail - i];
            if (later > maxLater) break;
            if (later > tried && blank(fail - i - 1)) {
                laterFound = true;
                later += a[fail - i - 1] / 2;
                break;
            }
        }
        if (!(later < maxLater && fail - (i + 1) > 0)) break;
    }
    if (!laterFound) {
        later += a[0];
        laterFound = later > tried && later < maxLater;
    }

    double earlier = a[fail];
    bool earlierFound = false;
    for (qsizetype i = 1;; ++i) {
        if (fail + i < n - 1) {
            if (earlier > tried && blank(fail + i)) {
                earlier += a[fail + i] / 2;
                earlierFound = earlier < maxEarlier;
                break;
            }
            earlier += a[fail + i];
        }
        if (!(earlier < maxEarlier && fail + i + 1 < n - 1)) break;
    }
    if (!earlierFound) {
        earlier += a[n - 1];
        earlierFound = earlier > tried && earlier < maxEarlier;
    }

    if (earlierFound && (!laterFound || earlier < later)) return -earlier;
    return laterFound ? later : 0;
}

// FOLLOW on one line of three or more points (msLineLabelPath): the label,
// or REPEATDISTANCE's row of labels, centred on the line; a placement that
// bends too sharply is shifted (retryShift) until it fits or nothing is
// left to try. A dropped label does not move the next one along.
void followLine(const Walk& walk, const LineLabelPath::Params& p, double textLength, LineLabelLayout& out)
{
    const double total = walk.length();
    double repeat = p.repeatDistance;
    // Text far longer than its line would be extrapolated into an ugly straight tail.
    if (textLength > 1.5 * total) {
        if (!p.force) return;
        repeat = 0;
    }
    int count = 1;
    if (repeat > 0 && total > textLength) count = 1 + int((total - textLength) / (textLength + repeat));
    const double pitch = textLength + repeat;
    const double first = count % 2 ? (total - textLength) / 2 - (count / 2) * pitch
                                   : (total - repeat) / 2 - textLength - (count / 2 - 1) * pitch;
    const double maxRetry = repeat / 2.1;
    // The end labels of a row may only move inwards as far as the row's margin.
    auto limits = [&](int l, bool forward) -> std::pair<double, double> {
        if (count == 1) return {first, first};
        const double edge = std::min(first, maxRetry);
        if (l == 0) return forward ? std::pair{maxRetry, edge} : std::pair{edge, maxRetry};
        if (l == count - 1) return forward ? std::pair{edge, maxRetry} : std::pair{maxRetry, edge};
        return {maxRetry, maxRetry};
    };
    double position = first;
    for (int l = 0; l < count; ++l) {
        double shift = 0;
        qsizetype firstFailure = 0;
        // Shifts only grow, so this ends; the bound guards against rounding.
        for (qsizetype tries = 0; tries <= 2 * p.advances.size() + 2; ++tries) {
            FollowAttempt attempt = glyphsAt(walk, position + shift, textLength, p);
            if (attempt.glyphs) {
                out.follow << *attempt.glyphs;
                position += pitch;
                break;
            }
            const auto [maxLater, maxEarlier] = limits(l, attempt.forward);
            if (shift == 0) firstFailure = attempt.failedAt;
            shift = retryShift(p, firstFailure, shift, maxLater, maxEarlier);
            if (shift == 0) break;
            if (!attempt.forward) shift = -shift;
        }
    }
}

// Liang-Barsky: the part of a -> b inside r, if any.
std::optional<QLineF> clipSegment(QPointF a, QPointF b, const QRectF& r)
{
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    double t0 = 0, t1 = 1;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - r.left(), r.right() - a.x(), a.y() - r.top(), r.bottom() - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) return std::nullopt;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
        if (t0 > t1) return std::nullopt;
    }
    return QLineF(a + QPointF(dx, dy) * t0, a + QPointF(dx, dy) * t1);
}

}  // namespace

double LineLabelPath::segmentAngle(QPointF a, QPointF b, Mode mode)
{
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    double angle = std::atan2(-dy, dx) * DegPerRad;
    // MapServer turns anything not running rightwards, vertical included.
    if (mode != Mode::Auto2 && !(dx > 0)) angle += 180;
    return normalized(angle);
}

LineLabelLayout LineLabelPath::place(const QList<QPolygonF>& lines, const Params& params)
{
    LineLabelLayout out;
    const double textLength = std::accumulate(params.advances.cbegin(), params.advances.cend(), 0.0);
    const double minLength = params.autoMinFeatureSize ? textLength : params.minFeatureSize;
    QList<Walk> walks;
    for (const QPolygonF& line : lines)
        if (line.size() >= 2) walks << Walk(line);
    // Without REPEATDISTANCE only the longest part is labelled, if it is long enough.
    QList<const Walk*> chosen;
    if (params.repeatDistance > 0) {
        for (const Walk& w : walks)
            if (w.length() > 0 && w.length() > minLength) chosen << &w;
    } else if (!walks.isEmpty()) {
        const auto longest = std::max_element(walks.cbegin(), walks.cend(),
                                              [](const Walk& a, const Walk& b) { return a.length() < b.length(); });
        if (longest->length() > 0 && longest->length() > minLength) chosen << &*longest;
    }
    for (const Walk* w : chosen) {
        if (params.mode == Mode::Follow && w->line().size() > 2 && params.advances.size() >= 2)
            followLine(*w, params, textLength, out);
        else
            pointsOnLine(*w, params, out);
    }
    return out;
}

QList<QPolygonF> LineLabelPath::clip(const QList<QPolygonF>& lines, const QRectF& rect)
{
    QList<QPolygonF> out;
    for (const QPolygonF& line : lines) {
        QPolygonF part;
        auto flush = [&] {
            if (part.size() >= 2) out << part;
            part.clear();
        };
        for (qsizetype i = 1; i < line.size(); ++i) {
            const std::optional<QLineF> s = clipSegment(line[i - 1], line[i], rect);
            if (!s) {
                flush();
                continue;
            }
            if (part.isEmpty() || part.last() != s->p1()) {
                flush();
                part << s->p1();
            }
            part << s->p2();
        }
        flush();
    }
    return out;
}

}  // namespace maptune
