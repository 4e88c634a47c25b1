#pragma once
// The MapServer 8 mapfile language as data: every block, the keywords it
// takes, their value types, defaults, versions and a description of our own.
// One schema serves the syntax reader, lint, completion, hover help and
// `maptune-cli schema --json`; its source is the JSON files next to this
// header, compiled into the engine.

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace maptune {

enum class ValueType {
    String, Integer, Number, Boolean, Enum, Color, Pair, Extent, Expression, Regex, Path,
    Attribute, Symbol, Font, Block, KeyValues, Strings, Numbers, KeyValue, GeomTransform,
    Flag,  // a keyword that takes no value
};

struct KeywordSpec {
    QString name;                    // upper case, as written in a mapfile
    ValueType type = ValueType::String;
    QString typeName;                // as in the JSON ("color")
    QStringList values;              // enum words, or literal words a non-enum also takes (AUTO)
    bool attribute = false;          // also takes an [attribute] binding
    std::optional<double> min, max;
    QString defaultValue;
    QString since, deprecated, removed, replacement;
    bool repeatable = false;
    QString description;

    bool isRemoved() const { return !removed.isEmpty(); }
    // Keywords whose value is a block of its own ended by END.
    bool endsWithEnd() const
    {
        return type == ValueType::Block || type == ValueType::KeyValues || type == ValueType::Strings ||
               type == ValueType::Numbers;
    }
};

struct BlockSpec {
    QString name;
    QStringList parents;             // empty: a file's top level (MAP, SYMBOLSET)
    QString description;
    QList<KeywordSpec> keywords;     // sorted by name

    const KeywordSpec* keyword(const QString& upper) const;
};

class KeywordSchema {
public:
    // The schema compiled into the engine (parsed once, thread-safe).
    static const KeywordSchema& builtin();
    // Parses schema JSON: one or more objects of BLOCK -> definition, merged.
    static KeywordSchema fromJson(const QList<QByteArray>& documents, QString* error);

    const BlockSpec* block(const QString& upper) const;
    const KeywordSpec* keyword(const QString& block, const QString& upper) const;
    QList<const BlockSpec*> blocks() const;  // by name
    // What a file's top level holds: a Block keyword per parentless block (MAP, SYMBOLSET).
    const BlockSpec& topLevel() const { return m_top; }
    // The block a keyword of type Block opens: the keyword's own name.
    const BlockSpec* blockOpenedBy(const KeywordSpec& keyword) const;

    // The whole schema as one JSON document (`maptune-cli schema --json`).
    QByteArray toJson() const;

private:
    QHash<QString, BlockSpec> m_blocks;
    BlockSpec m_top;
};

std::optional<ValueType> valueTypeFromName(const QString& name);
QString valueTypeName(ValueType type);

}  // namespace maptune
