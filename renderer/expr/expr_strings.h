#pragma once
// String helpers with MapServer's exact behaviour (mapstring.cpp), written
// against Qt strings and independent of the C locale.

#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

namespace maptune::exprstr {

// atof(): the longest numeric prefix after leading blanks, 0 when there is none.
// *complete tells whether the whole string (blanks aside) was a number.
double leadingNumber(QStringView text, bool* complete = nullptr);

// Where attribute `name` is among `fields`, as MapServer matches item names:
// an exact match first, else one ignoring case; -1 when absent or empty.
int fieldIndex(const QStringList& fields, const QString& name);

// printf("%g") in the C locale: how a numeric result becomes text.
QString formatG(double value);

// tostring(value, format): one printf conversion (flags, width, precision;
// d i o u x X c take the value as an integer, e E f F g G a A as a double).
// No value when the format has zero or several conversions.
std::optional<QString> formatNumber(const QString& format, double value);

// commify(): thousands separators in the integer part of a number string.
QString commify(const QString& text);
// initcap(): every space-separated word capitalised, the rest lower case.
QString initCap(const QString& text);
// firstcap(): the first non-blank character upper case, the rest lower case.
QString firstCap(const QString& text);

// Rewrites a POSIX extended regular expression (regcomp REG_EXTENDED) into the
// PCRE dialect of QRegularExpression: backslashes inside bracket expressions are
// literal, \< \> are word starts/ends, $ is the end of the string only.
QString posixToPcre(const QString& pattern);

}  // namespace maptune::exprstr
