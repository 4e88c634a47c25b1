#include "wms/mapserv/template_tags.h"

#include "wms/service_exception.h"

namespace maptune {

namespace {

QHash<QString, QString> parseArgs(const QString& text)
{
    QHash<QString, QString> args;
    QString current;
    bool quoted = false;
    auto flush = [&] {
        if (current.isEmpty()) return;
        const qsizetype eq = current.indexOf(QLatin1Char('='));
        QString name = eq < 0 ? current : current.left(eq);
        QString value = eq < 0 ? QStringLiteral("1") : current.mid(eq + 1);
        value.remove(QLatin1Char('"'));
        args.insert(name.toLower(), value);
        current.clear();
    };
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) quoted = !quoted;
        if (c == QLatin1Char(' ') && !quoted) {
            flush();
            continue;
        }
        current += c;
    }
    flush();
    return args;
}

}  // namespace

std::optional<TemplateTag> findTemplateTag(const QString& text, const QString& name, qsizetype from)
{
    const QString open = QLatin1Char('[') + name;
    for (qsizetype at = text.indexOf(open, from); at >= 0; at = text.indexOf(open, at + 1)) {
        const qsizetype after = at + open.size();
        if (after >= text.size() || (text[after] != QLatin1Char(']') && text[after] != QLatin1Char(' '))) continue;
        bool quoted = false;
        for (qsizetype i = after; i < text.size(); ++i) {
            if (text[i] == QLatin1Char('"')) quoted = !quoted;
            if (text[i] == QLatin1Char(']') && !quoted) {
                TemplateTag tag;
                tag.start = at;
                tag.end = i + 1;
                tag.args = parseArgs(text.mid(after, i - after));
                return tag;
            }
        }
        return std::nullopt;
    }
    return std::nullopt;
}

void replaceTemplateTags(QString& text, const QString& name, const std::function<QString(const TemplateTag&)>& value)
{
    qsizetype from = 0;
    while (auto tag = findTemplateTag(text, name, from)) {
        const QString replacement = value(*tag);
        text.replace(tag->start, tag->end - tag->start, replacement);
        from = tag->start + replacement.size();
    }
}

QString urlEncoded(const QString& text)
{
    return QString::fromLatin1(text.toUtf8().toPercentEncoding("'()*!~"));
}

QString jsonEscaped(const QString& text)
{
    QString out;
    for (const QChar c : text) {
        switch (c.unicode()) {
        case '"': out += QLatin1String("\\\""); break;
        case '\\': out += QLatin1String("\\\\"); break;
        case '\b': out += QLatin1String("\\b"); break;
        case '\f': out += QLatin1String("\\f"); break;
        case '\n': out += QLatin1String("\\n"); break;
        case '\r': out += QLatin1String("\\r"); break;
        case '\t': out += QLatin1String("\\t"); break;
        default:
            if (c.unicode() < 0x20) out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else out += c;
        }
    }
    return out;
}

QString escapedAs(const QString& text, const QString& escape)
{
    if (escape.compare(QLatin1String("url"), Qt::CaseInsensitive) == 0) return urlEncoded(text);
    if (escape.compare(QLatin1String("json"), Qt::CaseInsensitive) == 0) return jsonEscaped(text);
    if (escape.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0) return text;
    return markupEscape(text);
}

}  // namespace maptune
