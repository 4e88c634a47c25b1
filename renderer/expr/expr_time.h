#pragma once
// A calendar time as MapServer compares it: the broken-down fields of
// struct tm, compared field by field (no time zones, no normalisation).

#include <QString>
#include <QStringView>

#include <optional>
#include <tuple>

namespace maptune {

struct ExprTime {
    int year = 1900;  // fields not given stay as MapServer leaves them (tm zeroed)
    int month = 0;    // 0-based, as tm_mon
    int day = 0;      // 1-based; 0 when the string has no day
    int hour = 0;
    int minute = 0;
    int second = 0;

    auto key() const { return std::tie(year, month, day, hour, minute, second); }
    int compare(const ExprTime& o) const { return key() < o.key() ? -1 : (o.key() < key() ? 1 : 0); }
    bool operator==(const ExprTime& o) const { return key() == o.key(); }

    // MapServer's msParseTime(): the first of its patterns matching a prefix of
    // the string wins (YYYYMMDD, YYYY-MM-DD[T ]HH:MM:SS[Z], ..., YYYY-MM, YYYY,
    // [T]HH:MM:SS[Z]). Trailing text after the matched prefix is ignored.
    static std::optional<ExprTime> parse(QStringView text);

    // "YYYY-MM-DD HH:MM:SS" text that parse() reads back as these fields.
    QString literal() const;

    // MapServer's patterns by their user names ("YYYY-MM-DD HH", as
    // wms_timeformat lists them): the index, or -1 when none has that name.
    static int formatIndex(QStringView userFormat);
    // Whether `text` starts with that pattern's shape.
    static bool matchesFormat(QStringView text, int index);
    // How many of year, month, day, hour, minute, second it gives (1..6;
    // the time-of-day patterns count as 6).
    static int formatResolution(int index);
};

}  // namespace maptune
