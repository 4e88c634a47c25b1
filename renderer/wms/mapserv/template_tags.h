#pragma once
// The tag syntax of MapServer templates: "[name arg=value arg2="a b"]",
// found by exact name (followed by ']' or a space), arguments split on spaces
// outside double quotes; the tag ends at the first ']' outside quotes.

#include <QHash>
#include <QString>

#include <functional>
#include <optional>

namespace maptune {

struct TemplateTag {
    qsizetype start = 0;             // of '['
    qsizetype end = 0;               // one past ']'
    QHash<QString, QString> args;    // names lower-cased; a bare name has the value "1"

    QString arg(const QString& name, const QString& fallback = {}) const { return args.value(name, fallback); }
    bool has(const QString& name) const { return args.contains(name); }
};

// The first tag `name` at or after `from`.
std::optional<TemplateTag> findTemplateTag(const QString& text, const QString& name, qsizetype from = 0);

// Replaces every tag `name` in `text` by what `value` answers for it.
void replaceTemplateTags(QString& text, const QString& name, const std::function<QString(const TemplateTag&)>& value);

// MapServer's escapes: url (msEncodeUrl) and json (msEscapeJSonString).
QString urlEncoded(const QString& text);
QString jsonEscaped(const QString& text);

// An `escape` argument applied: "html" (the default given), "url", "json" or "none".
QString escapedAs(const QString& text, const QString& escape);

}  // namespace maptune
