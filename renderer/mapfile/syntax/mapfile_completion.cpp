#include "mapfile/syntax/mapfile_completion.h"

#include "mapfile/syntax/map_syntax.h"

#include <proj.h>

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

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

const QStringList& pathKeywords()
{
    static const QStringList keywords = {
        QStringLiteral("DATA"),     QStringLiteral("TILEINDEX"), QStringLiteral("INCLUDE"), QStringLiteral("SYMBOLSET"),
        QStringLiteral("FONTSET"),  QStringLiteral("TEMPLATE"),  QStringLiteral("HEADER"),  QStringLiteral("FOOTER"),
        QStringLiteral("IMAGE"),    QStringLiteral("KEYIMAGE"),  QStringLiteral("EMPTY"),   QStringLiteral("SHAPEPATH")};
    return keywords;
}

// Files and folders whose relative path starts with the typed text: from
// SHAPEPATH for DATA and TILEINDEX (as MapServer looks there first), else
// from the mapfile's folder. Folders end in '/', so typing goes on into them.
QList<CompletionItem> pathItems(const CompletionContext& ctx, const CompletionSources& sources)
{
    QList<CompletionItem> out;
    if (sources.mapPath.isEmpty() || QDir::isAbsolutePath(ctx.prefix)) return out;
    QDir base = QFileInfo(sources.mapPath).absoluteDir();
    const bool viaShapePath = ctx.keyword == QLatin1String("DATA") || ctx.keyword == QLatin1String("TILEINDEX");
    if (viaShapePath && !ctx.shapePath.isEmpty()) base.setPath(base.absoluteFilePath(ctx.shapePath));
    const int slash = int(ctx.prefix.lastIndexOf(QLatin1Char('/')));
    const QString folder = ctx.prefix.left(slash + 1);
    const QDir dir(base.absoluteFilePath(folder.isEmpty() ? QStringLiteral(".") : folder));
    // The typed part of the name filters first, so that a big folder still completes.
    const QStringList filter{ctx.prefix.mid(slash + 1) + QLatin1Char('*')};
    const QFileInfoList entries =
        dir.entryInfoList(filter, QDir::AllEntries | QDir::NoDotAndDotDot, QDir::Name | QDir::DirsFirst);
    for (const QFileInfo& e : entries.mid(0, 500)) {
        const QString text = folder + e.fileName() + (e.isDir() ? QStringLiteral("/") : QString());
        out.append({text, CompletionItem::Kind::Path, e.isDir() ? QStringLiteral("folder") : QStringLiteral("file")});
    }
    return out;
}

// EPSG codes in a PROJECTION string: "EPSG:43", "init=epsg:43" (as typed).
QList<CompletionItem> crsItems(const CompletionContext& ctx)
{
    QList<CompletionItem> out;
    static const QRegularExpression form(QStringLiteral("^(EPSG:|init=epsg:)(\\d*)$"), QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = form.match(ctx.prefix);
    if (!m.hasMatch() || m.captured(2).isEmpty()) return out;  // a digit first: 7,000 codes are too many to list
    for (const auto& [code, name] : epsgCodes())
        if (code.startsWith(m.captured(2))) out.append({m.captured(1) + code, CompletionItem::Kind::Crs, name});
    return out;
}

QList<CompletionItem> literalItems(const CompletionContext& ctx, const CompletionSources& sources)
{
    QList<CompletionItem> items;
    if (pathKeywords().contains(ctx.keyword)) items = pathItems(ctx, sources);
    else if (ctx.keyword == QLatin1String("PROJECTION")) items = crsItems(ctx);
    items.removeIf([&](const CompletionItem& i) { return !i.text.startsWith(ctx.prefix, Qt::CaseInsensitive); });
    return items;
}

}  // namespace

const QList<std::pair<QString, QString>>& epsgCodes()
{
    static const QList<std::pair<QString, QString>> codes = [] {
        QList<std::pair<QString, QString>> out;
        PJ_CONTEXT* ctx = proj_context_create();
        int count = 0;
        PROJ_CRS_INFO** list = proj_get_crs_info_list_from_database(ctx, "EPSG", nullptr, &count);
        for (int i = 0; list && i < count; ++i)
            if (!list[i]->deprecated) out.append({QString::fromUtf8(list[i]->code), QString::fromUtf8(list[i]->name)});
        proj_crs_info_list_destroy(list);
        proj_context_destroy(ctx);
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first.toInt() < b.first.toInt(); });
        return out;
    }();
    return codes;
}

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
            continue;
        }
        ctx.inLiteral = t.offset < start && t.kind != Token::Kind::Word;
        // Inside a string on its own line: what is typed of it completes (paths, CRS codes).
        const QByteArray typed = text.mid(t.offset + 1, offset - t.offset - 1);
        if (ctx.inLiteral && t.kind == Token::Kind::String && !typed.contains('\n')) {
            ctx.prefixStart = t.offset + 1;
            ctx.prefix = QString::fromUtf8(typed);
        }
        break;
    }
    const MapSyntax syntax = readMapSyntax(before, schema);
    const QList<const SyntaxNode*> path = openBlocks(syntax);
    for (const SyntaxNode* n : path) ctx.blocks.append(n->name);
    ctx.layerName = layerNameOf(path);
    if (!path.isEmpty() && path.first()->name == QLatin1String("MAP"))
        if (const SyntaxNode* shapePath = path.first()->child(QStringLiteral("SHAPEPATH"))) ctx.shapePath = shapePath->text();

    // Right after a keyword on its line, with no value yet: its value is being typed.
    const QList<SyntaxNode>& level = path.isEmpty() ? syntax.roots : path.last()->children;
    if (!level.isEmpty()) {
        const SyntaxNode& last = level.last();
        const int keywordEnd = last.keyword.offset + last.keyword.length;
        const bool sameLine = !text.mid(keywordEnd, start - keywordEnd).contains('\n');
        if (last.spec && !last.spec->endsWithEnd() && last.values.isEmpty() && sameLine && keywordEnd < start)
            ctx.keyword = last.name;
        // In an open PROJECTION (or another string list): its strings are being typed.
        if (ctx.inLiteral && last.spec && last.spec->type == ValueType::Strings && !last.end) ctx.keyword = last.name;
    }
    return ctx;
}

QList<CompletionItem> completionsFor(const CompletionContext& ctx, const CompletionSources& sources,
                                     const KeywordSchema& schema)
{
    QList<CompletionItem> items;
    if (ctx.inLiteral) return literalItems(ctx, sources);
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
