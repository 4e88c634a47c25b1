#include "data/postgis/postgis_data_def.h"

namespace maptune {

QString quotePgIdentifier(const QString& name)
{
    QString escaped = name;
    escaped.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QString PostgisDataDef::fromClause() const
{
    if (isSubselect()) return subselect + QLatin1String(" AS ") + quotePgIdentifier(alias);
    return schema.isEmpty() ? quotePgIdentifier(table) : quotePgIdentifier(schema) + QLatin1Char('.') + quotePgIdentifier(table);
}

QString PostgisDataDef::quotedGeometry() const
{
    return quotePgIdentifier(geometryColumn);
}

namespace {

// A cursor over DATA with the few token kinds the grammar needs.
class Scanner {
public:
    explicit Scanner(const QString& text) : m_s(text) {}

    bool atEnd() { skipSpace(); return m_i >= m_s.size(); }
    int pos() const { return m_i; }
    QString rest() const { return m_s.mid(m_i).trimmed(); }
    QChar peek() { skipSpace(); return m_i < m_s.size() ? m_s[m_i] : QChar(); }

    // A keyword followed by a non-identifier character.
    bool keyword(QLatin1String word)
    {
        skipSpace();
        if (m_s.mid(m_i, word.size()).compare(word, Qt::CaseInsensitive) != 0) return false;
        const int after = m_i + int(word.size());
        if (after < m_s.size() && isIdentChar(m_s[after])) return false;
        m_i = after;
        return true;
    }
    bool symbol(QChar c)
    {
        if (peek() != c) return false;
        ++m_i;
        return true;
    }
    // A bare identifier or a "quoted" one (with "" escapes); nullopt if none.
    std::optional<QString> identifier()
    {
        skipSpace();
        if (m_i >= m_s.size()) return std::nullopt;
        if (m_s[m_i] == QLatin1Char('"')) {
            QString out;
            for (int j = m_i + 1; j < m_s.size(); ++j) {
                if (m_s[j] != QLatin1Char('"')) { out += m_s[j]; continue; }
                if (j + 1 < m_s.size() && m_s[j + 1] == QLatin1Char('"')) { out += QLatin1Char('"'); ++j; continue; }
                m_i = j + 1;
                return out.isEmpty() ? std::nullopt : std::optional<QString>(out);
            }
            return std::nullopt;
        }
        if (!m_s[m_i].isLetter() && m_s[m_i] != QLatin1Char('_')) return std::nullopt;
        int j = m_i;
        while (j < m_s.size() && isIdentChar(m_s[j])) ++j;
        const QString out = m_s.mid(m_i, j - m_i);
        m_i = j;
        return out;
    }
    std::optional<int> integer()
    {
        skipSpace();
        int j = m_i;
        while (j < m_s.size() && m_s[j].isDigit()) ++j;
        if (j == m_i || j - m_i > 9) return std::nullopt;
        const int v = m_s.mid(m_i, j - m_i).toInt();
        m_i = j;
        return v;
    }
    // A parenthesised subselect, balanced outside string literals and quoted names.
    std::optional<QString> parenthesised()
    {
        skipSpace();
        if (m_i >= m_s.size() || m_s[m_i] != QLatin1Char('(')) return std::nullopt;
        int depth = 0;
        QChar quote;
        for (int j = m_i; j < m_s.size(); ++j) {
            const QChar c = m_s[j];
            if (!quote.isNull()) {
                if (c == quote) quote = QChar();
                continue;
            }
            if (c == QLatin1Char('\'') || c == QLatin1Char('"')) quote = c;
            else if (c == QLatin1Char('(')) ++depth;
            else if (c == QLatin1Char(')') && --depth == 0) {
                const QString out = m_s.mid(m_i, j + 1 - m_i);
                m_i = j + 1;
                return out;
            }
        }
        return std::nullopt;
    }

private:
    static bool isIdentChar(QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('$'); }
    void skipSpace()
    {
        while (m_i < m_s.size() && m_s[m_i].isSpace()) ++m_i;
    }
    QString m_s;
    int m_i = 0;
};

const QString kForms = QStringLiteral(
    "expected 'geom from table', 'geom from schema.table' or "
    "'geom from (select ...) as alias using unique id [using srid=n]'");

Error fail(const QString& message)
{
    return Error(QStringLiteral("DATA: %1").arg(message));
}

Status parseSource(Scanner& sc, PostgisDataDef& def)
{
    if (sc.peek() == QLatin1Char('(')) {
        const auto sub = sc.parenthesised();
        if (!sub) return fail(QStringLiteral("unbalanced parentheses in the subselect"));
        def.subselect = *sub;
        sc.keyword(QLatin1String("as"));
        const auto alias = sc.identifier();
        if (!alias || alias->compare(QLatin1String("using"), Qt::CaseInsensitive) == 0)
            return fail(QStringLiteral("a subselect needs an alias: 'geom from (select ...) as t using unique id'"));
        def.alias = *alias;
        return {};
    }
    const auto first = sc.identifier();
    if (!first) return fail(QStringLiteral("missing table after 'from'; %1").arg(kForms));
    def.table = *first;
    if (sc.symbol(QLatin1Char('.'))) {
        const auto second = sc.identifier();
        if (!second) return fail(QStringLiteral("missing table name after '%1.'").arg(*first));
        def.schema = *first;
        def.table = *second;
    }
    return {};
}

Status parseClauses(Scanner& sc, PostgisDataDef& def)
{
    while (!sc.atEnd()) {
        if (!sc.keyword(QLatin1String("using")))
            return fail(QStringLiteral("unexpected '%1'; expected 'using unique <column>' or 'using srid=<n>'").arg(sc.rest()));
        if (sc.keyword(QLatin1String("unique"))) {
            const auto col = sc.identifier();
            if (!col) return fail(QStringLiteral("'using unique' needs a column name"));
            if (!def.uniqueColumn.isEmpty()) return fail(QStringLiteral("'using unique' given twice"));
            def.uniqueColumn = *col;
        } else if (sc.keyword(QLatin1String("srid"))) {
            const auto srid = sc.symbol(QLatin1Char('=')) ? sc.integer() : std::nullopt;
            if (!srid || *srid <= 0) return fail(QStringLiteral("'using srid' needs a positive number: 'using srid=4326'"));
            if (def.srid) return fail(QStringLiteral("'using srid' given twice"));
            def.srid = *srid;
        } else {
            return fail(QStringLiteral("unknown clause 'using %1'; expected 'using unique <column>' or 'using srid=<n>'").arg(sc.rest()));
        }
    }
    return {};
}

}  // namespace

Result<PostgisDataDef> PostgisDataDef::parse(const QString& data)
{
    Scanner sc(data);
    PostgisDataDef def;
    if (sc.atEnd()) return fail(QStringLiteral("empty; %1").arg(kForms));
    const auto geom = sc.identifier();
    if (!geom || geom->compare(QLatin1String("from"), Qt::CaseInsensitive) == 0)
        return fail(QStringLiteral("missing geometry column; %1").arg(kForms));
    def.geometryColumn = *geom;
    if (!sc.keyword(QLatin1String("from")))
        return fail(QStringLiteral("expected 'from' after the geometry column '%1'; %2").arg(*geom, kForms));
    if (Status source = parseSource(sc, def); !source) return source.error();
    if (Status clauses = parseClauses(sc, def); !clauses) return clauses.error();
    if (def.isSubselect() && def.uniqueColumn.isEmpty())
        return fail(QStringLiteral("a subselect needs 'using unique <column>' (MapServer requires it too)"));
    return def;
}

}  // namespace maptune
