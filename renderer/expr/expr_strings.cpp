#include "expr/expr_strings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

namespace maptune::exprstr {

int fieldIndex(const QStringList& fields, const QString& name)
{
    if (name.isEmpty()) return -1;
    const qsizetype exact = fields.indexOf(name);
    if (exact >= 0) return int(exact);
    for (qsizetype i = 0; i < fields.size(); ++i)
        if (fields[i].compare(name, Qt::CaseInsensitive) == 0) return int(i);
    return -1;
}

double leadingNumber(QStringView text, bool* complete)
{
    qsizetype i = 0;
    while (i < text.size() && text[i].isSpace()) ++i;
    // from_chars rejects a leading '+', atof accepts it.
    if (i < text.size() && text[i] == u'+') ++i;
    char buf[64];
    qsizetype n = 0;
    for (qsizetype j = i; j < text.size() && n < qsizetype(sizeof buf); ++j, ++n) {
        const char16_t c = text[j].unicode();
        if (c > 0x7f) break;
        buf[n] = char(c);
    }
    double value = 0;
    const auto res = std::from_chars(buf, buf + n, value, std::chars_format::general);
    if (res.ec != std::errc()) {
        if (res.ec == std::errc::result_out_of_range) {
            // atof gives +-HUGE_VAL on overflow and 0 on underflow.
            const std::string_view digits(buf, std::size_t(res.ptr - buf));
            const bool underflow = digits.find("e-") != digits.npos || digits.find("E-") != digits.npos;
            value = underflow ? 0.0 : (buf[0] == '-' ? -HUGE_VAL : HUGE_VAL);
        } else {
            if (complete) *complete = false;
            return 0;
        }
    }
    if (complete) {
        qsizetype end = i + (res.ptr - buf);
        while (end < text.size() && text[end].isSpace()) ++end;
        *complete = res.ptr != buf && end == text.size();
    }
    return value;
}

QString formatG(double value)
{
    // QString::asprintf formats numbers itself, always in the C locale.
    return QString::asprintf("%g", value);
}

namespace {

enum class ArgKind { None, Integer, Double, Bad };

constexpr int kMaxWidth = 1024;

// Skips the ASCII digits at i (printf knows no others), returning their
// value capped just past kMaxWidth.
int digitsValue(const QString& format, qsizetype& i)
{
    int value = 0;
    for (; i < format.size() && format[i] >= u'0' && format[i] <= u'9'; ++i)
        value = std::min(value * 10 + (format[i].unicode() - u'0'), kMaxWidth + 1);
    return value;
}

// Finds the single conversion of a printf format; rejects anything needing
// another argument or a pointer.
ArgKind conversionKind(const QString& format)
{
    ArgKind kind = ArgKind::None;
    for (qsizetype i = 0; i < format.size(); ++i) {
        if (format[i] != u'%') continue;
        ++i;
        if (i < format.size() && format[i] == u'%') continue;
        while (i < format.size() && QStringView(u"-+ #0").contains(format[i])) ++i;
        // A width or precision past kMaxWidth is refused: printf would
        // overflow its int (Qt's crashes) or allocate gigabytes.
        if (digitsValue(format, i) > kMaxWidth) return ArgKind::Bad;
        if (i < format.size() && format[i] == u'.') {
            ++i;
            if (digitsValue(format, i) > kMaxWidth) return ArgKind::Bad;
        }
        if (i >= format.size() || kind != ArgKind::None) return ArgKind::Bad;
        const char16_t c = format[i].unicode();
        if (QStringView(u"diouxXc").contains(QChar(c)))
            kind = ArgKind::Integer;
        else if (QStringView(u"eEfFgGaA").contains(QChar(c)))
            kind = ArgKind::Double;
        else
            return ArgKind::Bad;
    }
    return kind;
}

}  // namespace

std::optional<QString> formatNumber(const QString& format, double value)
{
    const QByteArray fmt = format.toUtf8();
    switch (conversionKind(format)) {
    case ArgKind::Integer: {
        // The value is passed as int, as MapServer does.
        const int iv = std::isfinite(value) && std::fabs(value) < 2147483648.0 ? int(value) : 0;
        return QString::asprintf(fmt.constData(), iv);
    }
    case ArgKind::Double:
        return QString::asprintf(fmt.constData(), value);
    case ArgKind::None:
    case ArgKind::Bad:
        break;
    }
    return std::nullopt;
}

QString commify(const QString& text)
{
    if (text.count(u'.') > 1) return text;
    qsizetype start = 0;
    if (!text.isEmpty() && (text[0] == u'-' || text[0] == u'+')) start = 1;
    qsizetype end = text.indexOf(u'.');
    if (end < 0) end = text.size();
    const qsizetype digits = end - start;
    if (digits <= 3) return text;
    QString out;
    out.reserve(text.size() + digits / 3);
    out.append(QStringView(text).left(start));
    for (qsizetype i = start; i < end; ++i) {
        const qsizetype remaining = end - i;
        if (i > start && remaining % 3 == 0) out.append(u',');
        out.append(text[i]);
    }
    out.append(QStringView(text).mid(end));
    return out;
}

QString initCap(const QString& text)
{
    QString out = text;
    bool start = true;
    for (QChar& c : out) {
        if (c == u' ')
            start = true;
        else if (start) {
            c = c.toUpper();
            start = false;
        } else
            c = c.toLower();
    }
    return out;
}

QString firstCap(const QString& text)
{
    QString out = text;
    bool start = true;
    for (QChar& c : out) {
        if (c == u' ') continue;
        c = start ? c.toUpper() : c.toLower();
        start = false;
    }
    return out;
}

QString posixToPcre(const QString& pattern)
{
    QString out;
    out.reserve(pattern.size() + 8);
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern[i];
        if (c == u'\\' && i + 1 < pattern.size()) {
            const QChar n = pattern[i + 1];
            if (n == u'<') out.append(u"\\b(?=\\w)");
            else if (n == u'>') out.append(u"\\b(?<=\\w)");
            else { out.append(c); out.append(n); }
            ++i;
        } else if (c == u'[') {
            // Copy a bracket expression: ']' first is literal, [:class:] is
            // kept, a backslash is an ordinary character in POSIX.
            qsizetype j = i + 1;
            out.append(u'[');
            if (j < pattern.size() && pattern[j] == u'^') { out.append(u'^'); ++j; }
            if (j < pattern.size() && pattern[j] == u']') { out.append(u"\\]"); ++j; }
            bool closed = false;
            for (; j < pattern.size(); ++j) {
                const QChar b = pattern[j];
                if (b == u'[' && j + 1 < pattern.size() && QStringView(u":.=").contains(pattern[j + 1])) {
                    const QChar kind = pattern[j + 1];
                    const qsizetype close = pattern.indexOf(QString(kind) + u']', j + 2);
                    if (close < 0) { out.append(u"\\["); continue; }
                    out.append(QStringView(pattern).mid(j, close + 2 - j));
                    j = close + 1;
                } else if (b == u']') {
                    closed = true;
                    break;
                } else if (b == u'\\' || b == u'[') {
                    out.append(u'\\');
                    out.append(b);
                } else {
                    out.append(b);
                }
            }
            out.append(u']');
            if (!closed) return pattern;  // let the regex engine report the error
            i = j;
        } else if (c == u'$') {
            // POSIX '$' is the end of the string; PCRE's also matches before a
            // final newline, which would let "value\n" pass "^[a-z]+$".
            out.append(u"\\z");
        } else {
            out.append(c);
        }
    }
    return out;
}

}  // namespace maptune::exprstr
