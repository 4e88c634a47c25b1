#include "render/runtime_substitution.h"

#include "expr/expr_program.h"

#include <functional>

namespace maptune {

namespace {

const QLatin1String kDefaultPrefix("default_");

bool isDefaultKey(const QString& key)
{
    return key.startsWith(kDefaultPrefix, Qt::CaseInsensitive);
}

// Replaces %key% (case-insensitively) wherever a scope allows it.
struct Substituter {
    QString tag;
    QString value;
    bool changed = false;

    Substituter(const QString& key, QString v) : tag(QLatin1Char('%') + key + QLatin1Char('%')), value(std::move(v)) {}

    void in(QString& target)
    {
        if (!target.contains(tag, Qt::CaseInsensitive)) return;
        target.replace(tag, value, Qt::CaseInsensitive);
        changed = true;
    }
    // The expression keeps its type: MapServer substitutes the string it holds.
    void in(ExpressionDef& e)
    {
        if (e.isSet()) in(e.text);
    }
    void in(KeyValues& kv)
    {
        for (auto& item : kv.items) in(item.second);
    }
    void in(QStringList& list)
    {
        for (QString& s : list) in(s);
    }
    void inClass(ClassDef& c)
    {
        in(c.expression);
        in(c.text);
        in(c.title);
    }
    void inLayer(LayerDef& l)
    {
        in(l.data);
        in(l.tileIndex);
        in(l.connection);
        in(l.filter);
        in(l.mask);
        in(l.metadata);
        in(l.processing);
        for (ClassDef& c : l.classes) inClass(c);
    }
};

enum class Verdict { NoPattern, Accepted, Refused };

// msValidateParameter: POSIX extended, unanchored, case-sensitive.
Verdict validate(const KeyValues& validation, const QString& key, const QString& value)
{
    const std::optional<QString> pattern = validation.value(key);
    if (!pattern) return Verdict::NoPattern;
    const QRegularExpression re = compilePosixRegex(*pattern, false);
    return re.isValid() && re.match(value).hasMatch() ? Verdict::Accepted : Verdict::Refused;
}

void applyDefaultsFrom(const KeyValues& validation, const std::function<void(Substituter&)>& scope, bool& changed)
{
    for (const auto& item : validation.items) {
        if (!isDefaultKey(item.first)) continue;
        Substituter sub(item.first.mid(kDefaultPrefix.size()), item.second);
        scope(sub);
        changed |= sub.changed;
    }
}

// msApplyDefaultSubstitutions.
bool applyDefaultsTo(MapDef& map)
{
    bool changed = false;
    const KeyValues& web = map.web.validation;
    for (OutputFormatDef& format : map.outputFormats) {
        for (auto& option : format.formatOptions.items) {
            if (option.first.compare(QLatin1String("FILENAME"), Qt::CaseInsensitive) != 0
                && option.first.compare(QLatin1String("JSONP"), Qt::CaseInsensitive) != 0)
                continue;
            QString& value = option.second;
            applyDefaultsFrom(web, [&value](Substituter& s) { s.in(value); }, changed);
        }
    }
    for (LayerDef& layer : map.layers) {
        for (ClassDef& c : layer.classes)
            applyDefaultsFrom(c.validation, [&c](Substituter& s) { s.inClass(c); }, changed);
        applyDefaultsFrom(layer.validation, [&layer](Substituter& s) { s.inLayer(layer); }, changed);
        applyDefaultsFrom(web, [&layer](Substituter& s) { s.inLayer(layer); }, changed);
    }
    applyDefaultsFrom(web, [&map](Substituter& s) { s.in(map.web.metadata); }, changed);
    return changed;
}

}  // namespace

bool RuntimeSubstitution::immutable(const MapDef& map)
{
    return map.web.validation.value(QStringLiteral("immutable")).has_value();
}

QSet<QString> RuntimeSubstitution::keys(const MapDef& map)
{
    QSet<QString> out;
    if (immutable(map)) return out;
    const auto add = [&out](const KeyValues& validation) {
        for (const auto& item : validation.items)
            if (!isDefaultKey(item.first)) out.insert(item.first.toLower());
    };
    add(map.web.validation);
    for (const LayerDef& layer : map.layers) {
        add(layer.validation);
        for (const ClassDef& c : layer.classes) add(c.validation);
    }
    return out;
}

SubstitutionOutcome RuntimeSubstitution::apply(const MapDef& map, const QList<std::pair<QString, QString>>& values)
{
    SubstitutionOutcome outcome;
    if (immutable(map)) return outcome;
    MapDef out = map;
    bool changed = false, refused = false;
    for (const auto& [key, value] : values) {
        if (isDefaultKey(key)) continue;
        Substituter sub(key, value);
        const Verdict web = validate(out.web.validation, key, value);
        refused |= web == Verdict::Refused;
        for (LayerDef& layer : out.layers) {
            for (ClassDef& c : layer.classes) {
                const Verdict v = validate(c.validation, key, value);
                if (v == Verdict::Accepted) sub.inClass(c);
                refused |= v == Verdict::Refused;
            }
            // A layer's own pattern for the key overrides the WEB's.
            const Verdict v = validate(layer.validation, key, value);
            if (v == Verdict::Accepted || (v == Verdict::NoPattern && web == Verdict::Accepted)) sub.inLayer(layer);
            refused |= v == Verdict::Refused;
        }
        if (web == Verdict::Accepted) {
            sub.in(out.web.metadata);
            for (OutputFormatDef& format : out.outputFormats) sub.in(format.formatOptions);
        }
        changed |= sub.changed;
    }
    if (refused)
        outcome.errors << QStringLiteral("msApplySubstitutions(): Regular expression error. Parameter pattern validation failed.");
    if (!changed) return outcome;
    applyDefaultsTo(out);
    outcome.map = std::move(out);
    return outcome;
}

std::optional<MapDef> RuntimeSubstitution::applyDefaults(const MapDef& map)
{
    if (immutable(map)) return std::nullopt;
    MapDef out = map;
    if (!applyDefaultsTo(out)) return std::nullopt;
    return out;
}

}  // namespace maptune
