#include "mapfile/schema/keyword_schema.h"

#include "mapfile/schema/keyword_schema_data.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace maptune {

namespace {

constexpr std::pair<ValueType, const char*> kTypeNames[] = {
    {ValueType::String, "string"},       {ValueType::Integer, "integer"},   {ValueType::Number, "number"},
    {ValueType::Boolean, "boolean"},     {ValueType::Enum, "enum"},         {ValueType::Color, "color"},
    {ValueType::Pair, "pair"},           {ValueType::Extent, "extent"},     {ValueType::Expression, "expression"},
    {ValueType::Regex, "regex"},         {ValueType::Path, "path"},         {ValueType::Attribute, "attribute"},
    {ValueType::Symbol, "symbol"},       {ValueType::Font, "font"},         {ValueType::Block, "block"},
    {ValueType::KeyValues, "keyvalues"}, {ValueType::Strings, "strings"},   {ValueType::Numbers, "numbers"},
    {ValueType::KeyValue, "keyvalue"},   {ValueType::GeomTransform, "geomtransform"},
    {ValueType::Flag, "flag"},
};

QStringList upperStrings(const QJsonArray& array)
{
    QStringList out;
    for (const QJsonValue& v : array) out.append(v.toString());
    return out;
}

QString versionText(const QJsonValue& v)
{
    return v.isDouble() ? QString::number(v.toDouble(), 'f', 1) : v.toString();
}

std::optional<KeywordSpec> readKeyword(const QString& name, const QJsonObject& o, QString* error)
{
    KeywordSpec k;
    k.name = name.toUpper();
    k.typeName = o.value(QLatin1String("type")).toString();
    const std::optional<ValueType> type = valueTypeFromName(k.typeName);
    if (!type) {
        if (error) *error = QStringLiteral("keyword %1: unknown type '%2'").arg(name, k.typeName);
        return std::nullopt;
    }
    k.type = *type;
    k.values = upperStrings(o.value(QLatin1String("values")).toArray());
    k.attribute = o.value(QLatin1String("attribute")).toBool();
    if (o.contains(QLatin1String("min"))) k.min = o.value(QLatin1String("min")).toDouble();
    if (o.contains(QLatin1String("max"))) k.max = o.value(QLatin1String("max")).toDouble();
    const QJsonValue def = o.value(QLatin1String("default"));
    k.defaultValue = def.isDouble() ? QString::number(def.toDouble()) : def.toString();
    k.since = versionText(o.value(QLatin1String("since")));
    k.deprecated = versionText(o.value(QLatin1String("deprecated")));
    k.removed = versionText(o.value(QLatin1String("removed")));
    k.replacement = o.value(QLatin1String("replacement")).toString();
    k.repeatable = o.value(QLatin1String("repeatable")).toBool();
    k.description = o.value(QLatin1String("description")).toString();
    return k;
}

QJsonObject keywordJson(const KeywordSpec& k)
{
    QJsonObject o;
    o.insert(QLatin1String("type"), k.typeName);
    if (!k.values.isEmpty()) o.insert(QLatin1String("values"), QJsonArray::fromStringList(k.values));
    if (k.attribute) o.insert(QLatin1String("attribute"), true);
    if (k.min) o.insert(QLatin1String("min"), *k.min);
    if (k.max) o.insert(QLatin1String("max"), *k.max);
    const std::pair<const char*, const QString*> texts[] = {
        {"default", &k.defaultValue}, {"since", &k.since},           {"deprecated", &k.deprecated},
        {"removed", &k.removed},      {"replacement", &k.replacement}, {"description", &k.description}};
    for (const auto& [key, value] : texts)
        if (!value->isEmpty()) o.insert(QLatin1String(key), *value);
    if (k.repeatable) o.insert(QLatin1String("repeatable"), true);
    return o;
}

}  // namespace

std::optional<ValueType> valueTypeFromName(const QString& name)
{
    for (const auto& [type, text] : kTypeNames)
        if (name == QLatin1String(text)) return type;
    return std::nullopt;
}

QString valueTypeName(ValueType type)
{
    for (const auto& [t, text] : kTypeNames)
        if (t == type) return QLatin1String(text);
    return {};
}

const KeywordSpec* BlockSpec::keyword(const QString& upper) const
{
    const auto it = std::lower_bound(keywords.begin(), keywords.end(), upper,
                                     [](const KeywordSpec& k, const QString& n) { return k.name < n; });
    return it != keywords.end() && it->name == upper ? &*it : nullptr;
}

KeywordSchema KeywordSchema::fromJson(const QList<QByteArray>& documents, QString* error)
{
    KeywordSchema schema;
    for (const QByteArray& text : documents) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (!doc.isObject()) {
            if (error) *error = QStringLiteral("schema JSON at byte %1: %2").arg(parseError.offset).arg(parseError.errorString());
            return {};
        }
        const QJsonObject root = doc.object();
        for (auto b = root.begin(); b != root.end(); ++b) {
            const QJsonObject def = b.value().toObject();
            BlockSpec& block = schema.m_blocks[b.key().toUpper()];
            block.name = b.key().toUpper();
            block.parents += upperStrings(def.value(QLatin1String("parents")).toArray());
            block.parents.removeDuplicates();
            if (block.description.isEmpty()) block.description = def.value(QLatin1String("description")).toString();
            const QJsonObject keywords = def.value(QLatin1String("keywords")).toObject();
            for (auto k = keywords.begin(); k != keywords.end(); ++k) {
                std::optional<KeywordSpec> spec = readKeyword(k.key(), k.value().toObject(), error);
                if (!spec) {
                    if (error) *error = block.name + QLatin1Char(' ') + *error;
                    return {};
                }
                if (!block.keyword(spec->name)) block.keywords.append(*spec);
                std::sort(block.keywords.begin(), block.keywords.end(),
                          [](const KeywordSpec& a, const KeywordSpec& c) { return a.name < c.name; });
            }
        }
    }
    for (const BlockSpec* b : schema.blocks()) {
        if (!b->parents.isEmpty()) continue;
        KeywordSpec opener;
        opener.name = b->name;
        opener.type = ValueType::Block;
        opener.typeName = valueTypeName(ValueType::Block);
        opener.description = b->description;
        schema.m_top.keywords.append(opener);
    }
    return schema;
}

const KeywordSchema& KeywordSchema::builtin()
{
    static const KeywordSchema schema = [] {
        QString error;
        KeywordSchema s = fromJson(builtinSchemaDocuments(), &error);
        Q_ASSERT_X(error.isEmpty(), "KeywordSchema", qPrintable(error));
        return s;
    }();
    return schema;
}

const BlockSpec* KeywordSchema::block(const QString& upper) const
{
    const auto it = m_blocks.constFind(upper);
    return it == m_blocks.constEnd() ? nullptr : &*it;
}

const KeywordSpec* KeywordSchema::keyword(const QString& blockName, const QString& upper) const
{
    const BlockSpec* b = block(blockName);
    return b ? b->keyword(upper) : nullptr;
}

QList<const BlockSpec*> KeywordSchema::blocks() const
{
    QList<const BlockSpec*> out;
    for (const BlockSpec& b : m_blocks) out.append(&b);
    std::sort(out.begin(), out.end(), [](const BlockSpec* a, const BlockSpec* b) { return a->name < b->name; });
    return out;
}

const BlockSpec* KeywordSchema::blockOpenedBy(const KeywordSpec& keyword) const
{
    return keyword.type == ValueType::Block ? block(keyword.name) : nullptr;
}

QByteArray KeywordSchema::toJson() const
{
    QJsonObject root;
    for (const BlockSpec* b : blocks()) {
        QJsonObject keywords;
        for (const KeywordSpec& k : b->keywords) keywords.insert(k.name, keywordJson(k));
        QJsonObject def;
        def.insert(QLatin1String("parents"), QJsonArray::fromStringList(b->parents));
        def.insert(QLatin1String("description"), b->description);
        def.insert(QLatin1String("keywords"), keywords);
        root.insert(b->name, def);
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace maptune
