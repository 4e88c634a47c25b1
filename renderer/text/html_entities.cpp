#include "text/html_entities.h"

#include <QHash>

#include <iterator>
#include <optional>

namespace maptune {

namespace {

// HTML 4's Latin-1 entities (U+00A0..U+00FF, in code order) and the common others.
const char* const kLatin1[] = {
    "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf", "laquo", "not", "shy",
    "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot", "cedil", "sup1", "ordm",
    "raquo", "frac14", "frac12", "frac34", "iquest", "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig",
    "Ccedil", "Egrave", "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH", "Ntilde", "Ograve",
    "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN",
    "szlig", "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil", "egrave", "eacute", "ecirc",
    "euml", "igrave", "iacute", "icirc", "iuml", "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml",
    "divide", "oslash", "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml"};

const QHash<QString, char32_t>& named()
{
    static const QHash<QString, char32_t> table = [] {
        QHash<QString, char32_t> t{{"amp", U'&'},      {"lt", U'<'},       {"gt", U'>'},       {"quot", U'"'},
                                   {"apos", U'\''},    {"euro", U'\u20AC'}, {"trade", U'\u2122'}, {"hellip", U'\u2026'},
                                   {"ndash", U'\u2013'}, {"mdash", U'\u2014'}, {"lsquo", U'\u2018'}, {"rsquo", U'\u2019'},
                                   {"ldquo", U'\u201C'}, {"rdquo", U'\u201D'}, {"bull", U'\u2022'}};
        for (int i = 0; i < int(std::size(kLatin1)); ++i) t.insert(QLatin1String(kLatin1[i]), char32_t(0xA0 + i));
        return t;
    }();
    return table;
}

}  // namespace

QString decodeHtmlEntities(const QString& text)
{
    if (!text.contains(QLatin1Char('&'))) return text;
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const qsizetype end = text[i] == u'&' ? text.indexOf(QLatin1Char(';'), i + 1) : -1;
        if (end < 0 || end - i > 12) {
            out += text[i];
            continue;
        }
        const QStringView name = QStringView(text).mid(i + 1, end - i - 1);
        std::optional<char32_t> code;
        bool ok = false;
        if (name.startsWith(u"#x") || name.startsWith(u"#X")) {
            const uint v = name.mid(2).toUInt(&ok, 16);
            if (ok) code = char32_t(v);
        } else if (name.startsWith(u'#')) {
            const uint v = name.mid(1).toUInt(&ok, 10);
            if (ok) code = char32_t(v);
        } else if (const auto it = named().constFind(name.toString()); it != named().cend()) {
            code = *it;
        }
        if (!code || *code == 0 || *code > 0x10FFFF || (*code >= 0xD800 && *code <= 0xDFFF)) {
            out += text[i];
            continue;
        }
        out += QString::fromUcs4(&*code, 1);
        i = end;
    }
    return out;
}

}  // namespace maptune
