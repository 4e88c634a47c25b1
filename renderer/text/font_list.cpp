#include "text/font_list.h"

#include <algorithm>

namespace maptune {

FontList FontList::parse(const QString& font, const KeyValues& fontset)
{
    FontList list;
    if (font.isEmpty()) return list;
    for (const QString& raw : font.split(QLatin1Char(','))) {
        Entry e;
        const qsizetype colon = raw.indexOf(QLatin1Char(':'));
        if (colon >= 0) e.prefix = raw.left(colon + 1);
        // The key without its prefix first, then the whole text (check_single_font).
        std::optional<QString> file;
        if (colon >= 0) file = fontset.value(raw.mid(colon + 1).trimmed());
        if (!file) file = fontset.value(raw.trimmed());
        if (file) e.path = *file;
        list.entries << e;
    }
    return list;
}

FontList FontList::forLabel(const QString& font, const KeyValues& fontset, bool trueType)
{
    FontList list = parse(font, fontset);
    const bool anyKnown = std::any_of(list.entries.cbegin(), list.entries.cend(), [](const Entry& e) { return !e.path.isEmpty(); });
    return trueType || anyKnown ? list : FontList();
}

}  // namespace maptune
