#include "mapfile/syntax/mapfile_completion.h"

#include "mapfile/syntax/map_syntax.h"

#include <algorithm>

namespace maptune {

namespace {

bool isWordByte(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

std::vector<Token> tokensOf(const QByteArray& text)
{
    Diagnostics ignored;
    return MapLexer::scanSourceTokens(text, QString(), ignored);
}

// The innermost unclosed blocks at the end of what was read, outermost first.
QList<const SyntaxNode*> openBlocks(const MapSyntax& syntax)
{
    QList<const SyntaxNode*> path;
    const QList<SyntaxNode>* level = &syntax.roots;
    while (!level->isEmpty()) {
        const SyntaxNode& last = level->last();
        if (!last.opensBlock() || last.end) break;
        path.append(&last);
        level = &last.children;
    }
    return path;
}

QString quoted(const QString& s) { return QLatin1Char('"') + s + QLatin1Char('"'); }

void addAll(QList<CompletionItem>& out, const QStringList& texts, CompletionItem::Kind kind, const QString& detail,
            const KeywordSpec* spec, bool quote)
{
    for (const QString& t : texts) out.append({quote ? quoted(t) : t, kind, detail, spec});
}

QList<CompletionItem> valueItems(const KeywordSpec& spec, const CompletionSources& sources)
{
    QList<CompletionItem> out;
    addAll(out, spec.values, CompletionItem::Kind::Value, spec.typeName, &spec, false);
    switch (spec.type) {
    case ValueType::Boolean:
        addAll(out, {QStringLiteral("TRUE"), QStringLiteral("FALSE")}, CompletionItem::Kind::Value, spec.typeName,
               &spec, false);
        break;
    case ValueType::Symbol:
        addAll(out, sources.symbols, CompletionItem::Kind::Symbol, QStringLiteral("symbol"), &spec, true);
        break;
    case ValueType::Font:
        addAll(out, sources.fonts, CompletionItem::Kind::Font, QStringLiteral("FONTSET"), &spec, true);
        break;
    case ValueType::Attribute:
        addAll(out, sources.attributes, CompletionItem::Kind::Attribute, QStringLiteral("attribute"), &spec, true);
        break;
    default:
        break;
    }
    if (spec.attribute)
        for (const QString& a : sources.attributes)
            out.append({QLatin1Char('[') + a + QLatin1Char(']'), CompletionItem::Kind::Attribute,
                        QStringLiteral("attribute"), &spec});
    return out;
}

QString layerNameOf(const QList<const SyntaxNode*>& path)
{
    for (const SyntaxNode* n : path)
        if (n->name == QLatin1String("LAYER"))
            if (const SyntaxNode* name = n->child(QStringLiteral("NAME"))) return name->text();
    return {};
}

}  // namespace

CompletionContext completionContextAt(const QByteArray& text, int offset, const KeywordSchema& schema)
{
    CompletionContext ctx;
    offset = std::clamp(offset, 0, int(text.size()));
    int start = offset;
    while (start > 0 && isWordByte(text[start - 1])) --start;
    ctx.prefixStart = start;
    ctx.prefix = QString::fromUtf8(text.mid(start, offset - start));

    std::vector<Token> tokens = tokensOf(text);
    std::vector<Token> before;
    for (const Token& t : tokens) {
        if (t.offset + t.length <= start) {
            before.push_back(t);
        } else {
            ctx.inLiteral = t.offset < start && t.kind != Token::Kind::Word;
            break;
        }
    }
    const MapSyntax syntax = readMapSyntax(before, schema);
    const QList<const SyntaxNode*> path = openBlocks(syntax);
    for (const SyntaxNode* n : path) ctx.blocks.append(n->name);
    ctx.layerName = layerNameOf(path);

    // Right after a keyword on its line, with no value yet: its value is being typed.
    const QList<SyntaxNode>& level = path.isEmpty() ? syntax.roots : path.last()->children;
    if (!level.isEmpty()) {
        const SyntaxNode& last = level.last();
        const int keywordEnd = last.keyword.offset + last.keyword.length;
        const bool sameLine = !text.mid(keywordEnd, start - keywordEnd).contains('\n');
        if (last.spec && !last.spec->endsWithEnd() && last.values.isEmpty() && sameLine && keywordEnd < start)
            ctx.keyword = last.name;
    }
    return ctx;
}

QList<CompletionItem> completionsFor(const CompletionContext& ctx, const CompletionSources& sources,
                                     const KeywordSchema& schema)
{
    QList<CompletionItem> items;
    if (ctx.inLiteral) return items;
    if (!ctx.keyword.isEmpty()) {
        if (const KeywordSpec* spec = schema.keyword(ctx.block(), ctx.keyword)) items = valueItems(*spec, sources);
    } else {
        const BlockSpec* block = ctx.blocks.isEmpty() ? &schema.topLevel() : schema.block(ctx.block());
        if (block)
            for (const KeywordSpec& k : block->keywords)
                if (!k.isRemoved()) items.append({k.name, CompletionItem::Kind::Keyword, k.typeName, &k});
        if (!ctx.blocks.isEmpty()) {
            items.append({QStringLiteral("END"), CompletionItem::Kind::Keyword, QStringLiteral("closes ") + ctx.block()});
            items.append({QStringLiteral("INCLUDE"), CompletionItem::Kind::Keyword, QStringLiteral("path")});
        }
    }
    const QString prefix = ctx.prefix;
    items.erase(std::remove_if(items.begin(), items.end(),
                               [&](const CompletionItem& i) {
                                   QString t = i.text;
                                   if (t.startsWith(QLatin1Char('"')) || t.startsWith(QLatin1Char('['))) t.remove(0, 1);
                                   return !t.startsWith(prefix, Qt::CaseInsensitive);
                               }),
                items.end());
    std::stable_sort(items.begin(), items.end(), [](const CompletionItem& a, const CompletionItem& b) {
        return a.text.compare(b.text, Qt::CaseInsensitive) < 0;
    });
    items.erase(std::unique(items.begin(), items.end(),
                            [](const CompletionItem& a, const CompletionItem& b) { return a.text == b.text; }),
                items.end());
    return items;
}

KeywordAt keywordAt(const QByteArray& text, int offset, const KeywordSchema& schema)
{
    KeywordAt found;
    const MapSyntax syntax = readMapSyntax(tokensOf(text), schema);
    syntax.visit([&](const SyntaxNode& n, const QList<const SyntaxNode*>&) {
        if (found.spec || !n.spec) return;
        const Token& k = n.keyword;
        if (offset >= k.offset && offset < k.offset + k.length) found = {n.spec, n.block, k.offset, k.length};
    });
    return found;
}

QString keywordHelpHtml(const KeywordSpec& spec, const QString& block)
{
    QString html = QStringLiteral("<b>%1</b> <i>%2</i>").arg(spec.name.toHtmlEscaped(), spec.typeName.toHtmlEscaped());
    if (!block.isEmpty()) html += QStringLiteral(" in %1").arg(block.toHtmlEscaped());
    QStringList facts;
    if (!spec.values.isEmpty()) facts << QStringLiteral("values: ") + spec.values.join(QStringLiteral(", ")).toHtmlEscaped();
    if (spec.attribute) facts << QStringLiteral("or an [attribute]");
    if (spec.min || spec.max)
        facts << QStringLiteral("range %1 to %2")
                     .arg(spec.min ? QString::number(*spec.min) : QStringLiteral("…"),
                          spec.max ? QString::number(*spec.max) : QStringLiteral("…"));
    if (!spec.defaultValue.isEmpty()) facts << QStringLiteral("default: ") + spec.defaultValue.toHtmlEscaped();
    if (!spec.since.isEmpty()) facts << QStringLiteral("since MapServer ") + spec.since;
    if (!spec.deprecated.isEmpty()) facts << QStringLiteral("deprecated in ") + spec.deprecated;
    if (!spec.removed.isEmpty()) facts << QStringLiteral("<b>removed in MapServer %1</b>").arg(spec.removed);
    if (!spec.replacement.isEmpty()) facts << QStringLiteral("use ") + spec.replacement.toHtmlEscaped();
    if (spec.repeatable) facts << QStringLiteral("may repeat");
    if (!facts.isEmpty()) html += QStringLiteral("<br/>") + facts.join(QStringLiteral(" · "));
    if (!spec.description.isEmpty()) html += QStringLiteral("<p>%1</p>").arg(spec.description.toHtmlEscaped());
    return html;
}

}  // namespace maptune
