#include "expr/expr_time.h"

#include <iterator>

namespace maptune {
namespace {

// One of MapServer's time patterns: 'D' a digit, anything else must match literally.
struct TimePattern {
    const char* shape;
    // Which field each run of digits fills, in order: Y m d H M S.
    const char* fields;
};

// Same order as ms_timeFormats in maptime.c: the first match wins.
constexpr TimePattern kPatterns[] = {
    {"DDDDDDDD", "Ymd"},
    {"DDDD-DD-DDTDD:DD:DDZ", "YmdHMS"},
    {"DDDD-DD-DDTDD:DD:DD", "YmdHMS"},
    {"DDDD-DD-DD DD:DD:DD", "YmdHMS"},
    {"DDDD-DD-DDTDD:DD", "YmdHM"},
    {"DDDD-DD-DD DD:DD", "YmdHM"},
    {"DDDD-DD-DDTDD", "YmdH"},
    {"DDDD-DD-DD DD", "YmdH"},
    {"DDDD-DD-DD", "Ymd"},
    {"DDDD-DD", "Ym"},
    {"DDDD", "Y"},
    {"TDD:DD:DDZ", "HMS"},
    {"TDD:DD:DD", "HMS"},
    {"DD:DD:DDZ", "HMS"},
    {"DD:DD:DD", "HMS"},
};

bool matchesShape(QStringView text, const char* shape)
{
    qsizetype i = 0;
    for (const char* p = shape; *p; ++p, ++i) {
        if (i >= text.size()) return false;
        const QChar c = text[i];
        if (*p == 'D' ? !(c >= u'0' && c <= u'9') : c != QLatin1Char(*p)) return false;
    }
    return true;
}

ExprTime fill(QStringView text, const TimePattern& pattern)
{
    // The shape has matched, so digit runs are where the shape says.
    int values[6] = {};
    int count = 0;
    int current = -1;
    for (qsizetype i = 0; pattern.shape[i]; ++i) {
        if (pattern.shape[i] == 'D') {
            if (current < 0) current = 0;
            current = current * 10 + (text[i].unicode() - '0');
        } else if (current >= 0) {
            values[count++] = current;
            current = -1;
        }
    }
    if (current >= 0) values[count++] = current;
    // YYYYMMDD is one digit run; split it the way strptime("%Y%m%d") does.
    if (count == 1 && qstrlen(pattern.fields) == 3) {
        const int v = values[0];
        values[0] = v / 10000;
        values[1] = v / 100 % 100;
        values[2] = v % 100;
        count = 3;
    }
    ExprTime t;
    for (int k = 0; k < count; ++k) {
        switch (pattern.fields[k]) {
        case 'Y': t.year = values[k]; break;
        case 'm': t.month = values[k] - 1; break;
        case 'd': t.day = values[k]; break;
        case 'H': t.hour = values[k]; break;
        case 'M': t.minute = values[k]; break;
        case 'S': t.second = values[k]; break;
        default: break;
        }
    }
    return t;
}

// The name MapServer's table gives a pattern: each digit run spelled with
// its field's letter (YYYY-MM-DDTHH:MM:SSZ, YYYYMMDD, ...).
QString userFormat(const TimePattern& p)
{
    QString out;
    int field = 0;
    bool inRun = false;
    const qsizetype fieldCount = qstrlen(p.fields);
    for (const char* c = p.shape; *c; ++c) {
        if (*c != 'D') {
            if (inRun) ++field;
            inRun = false;
            out += QLatin1Char(*c);
            continue;
        }
        inRun = true;
        if (fieldCount == 3 && qstrlen(p.shape) == 8) {  // YYYYMMDD: one run, three fields
            out = QStringLiteral("YYYYMMDD");
            break;
        }
        switch (p.fields[field]) {
        case 'Y': out += QLatin1Char('Y'); break;
        case 'm': case 'M': out += QLatin1Char('M'); break;
        case 'd': out += QLatin1Char('D'); break;
        case 'H': out += QLatin1Char('H'); break;
        default: out += QLatin1Char('S'); break;
        }
    }
    return out;
}

}  // namespace

QString ExprTime::literal() const
{
    return QString::asprintf("%04d-%02d-%02d %02d:%02d:%02d", year, month + 1, day, hour, minute, second);
}

int ExprTime::formatIndex(QStringView name)
{
    const QString trimmed = name.trimmed().toString();
    for (int i = 0; i < int(std::size(kPatterns)); ++i)
        if (userFormat(kPatterns[i]) == trimmed) return i;
    return -1;
}

bool ExprTime::matchesFormat(QStringView text, int index)
{
    return index >= 0 && index < int(std::size(kPatterns)) && matchesShape(text, kPatterns[index].shape);
}

int ExprTime::formatResolution(int index)
{
    if (index < 0 || index >= int(std::size(kPatterns))) return 6;
    const QLatin1String fields(kPatterns[index].fields);
    return fields.startsWith(QLatin1Char('Y')) ? int(fields.size()) : 6;
}

std::optional<ExprTime> ExprTime::parse(QStringView text)
{
    if (text.isEmpty()) return std::nullopt;
    for (const TimePattern& p : kPatterns)
        if (matchesShape(text, p.shape)) return fill(text, p);
    return std::nullopt;
}

}  // namespace maptune
