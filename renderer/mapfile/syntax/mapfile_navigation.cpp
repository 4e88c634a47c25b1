#include "mapfile/syntax/mapfile_navigation.h"

#include "mapfile/map_paths.h"
#include "mapfile/syntax/map_syntax.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace maptune {

namespace {

const SyntaxNode* mapNode(const MapSyntax& syntax)
{
    for (const SyntaxNode& n : syntax.roots)
        if (n.name == QLatin1String("MAP")) return &n;
    return nullptr;
}

// Just what path resolution needs from the MAP: its file and SHAPEPATH.
MapDef pathContext(const MapSyntax& syntax, const QString& mapPath)
{
    MapDef map;
    map.path = QFileInfo(mapPath).absoluteFilePath();
    if (const SyntaxNode* m = mapNode(syntax))
        if (const SyntaxNode* shapePath = m->child(QStringLiteral("SHAPEPATH"))) map.shapePath = shapePath->text();
    return map;
}

NavigationTarget fileTarget(const QString& path, const QString& what)
{
    NavigationTarget t;
    t.file = QDir::cleanPath(path);
    t.what = what;
    t.exists = QFileInfo::exists(t.file);
    return t;
}

// The SYMBOL block named `name` among nodes, or null.
const SyntaxNode* symbolNamed(const QList<const SyntaxNode*>& symbols, const QString& name)
{
    for (const SyntaxNode* s : symbols)
        if (const SyntaxNode* n = s->child(QStringLiteral("NAME")); n && n->text().compare(name, Qt::CaseInsensitive) == 0)
            return s;
    return nullptr;
}

NavigationTarget symbolDefinition(const MapSyntax& syntax, const MapDef& paths, const QString& mapPath, const QString& name)
{
    const SyntaxNode* map = mapNode(syntax);
    if (!map) return {};
    if (const SyntaxNode* s = symbolNamed(map->childrenNamed(QStringLiteral("SYMBOL")), name))
        return {QFileInfo(mapPath).absoluteFilePath(), s->keyword.pos.line, s->keyword.pos.column,
                QStringLiteral("SYMBOL '%1'").arg(name), true};
    const SyntaxNode* set = map->child(QStringLiteral("SYMBOLSET"));
    if (!set || set->text().isEmpty()) return {};
    const QString file = mapRelativePath(paths, set->text());
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const MapSyntax symbols = readMapSyntaxText(f.readAll(), file);
    for (const SyntaxNode& root : symbols.roots)
        if (const SyntaxNode* s = symbolNamed(root.childrenNamed(QStringLiteral("SYMBOL")), name))
            return {file, s->keyword.pos.line, s->keyword.pos.column, QStringLiteral("SYMBOL '%1'").arg(name), true};
    return {};
}

NavigationTarget fontDefinition(const MapSyntax& syntax, const MapDef& paths, const QString& name)
{
    const SyntaxNode* map = mapNode(syntax);
    const SyntaxNode* set = map ? map->child(QStringLiteral("FONTSET")) : nullptr;
    if (!set || set->text().isEmpty()) return {};
    const QString file = mapRelativePath(paths, set->text());
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return {};
    int line = 0;
    while (!f.atEnd()) {
        ++line;
        const QString text = QString::fromUtf8(f.readLine()).trimmed();
        if (text.section(QRegularExpression(QStringLiteral("\\s+")), 0, 0).compare(name, Qt::CaseInsensitive) == 0)
            return {file, line, 1, QStringLiteral("FONT '%1'").arg(name), true};
    }
    return {};
}

// The node whose keyword or first value covers the offset.
struct Hit {
    const SyntaxNode* node = nullptr;
    const SyntaxNode* parent = nullptr;   // the block it is written in
};
Hit nodeAt(const MapSyntax& syntax, int offset)
{
    Hit hit;
    syntax.visit([&](const SyntaxNode& n, const QList<const SyntaxNode*>& ancestors) {
        if (hit.node) return;
        const Token& k = n.keyword;
        const bool onKeyword = offset >= k.offset && offset <= k.offset + k.length;
        const bool onValue = !n.values.isEmpty() && offset >= n.values.first().offset &&
                             offset <= n.values.first().offset + n.values.first().length;
        if (onKeyword || onValue) hit = {&n, ancestors.isEmpty() ? nullptr : ancestors.last()};
    });
    return hit;
}

OutlineItem outlineItem(const SyntaxNode& block)
{
    OutlineItem item;
    item.keyword = block.name;
    if (const SyntaxNode* name = block.child(QStringLiteral("NAME"))) item.name = name->text();
    item.line = block.keyword.pos.line;
    item.endLine = block.end ? block.end->pos.line : 0;
    for (const SyntaxNode& c : block.children)
        if (c.opensBlock()) item.children.append(outlineItem(c));
    return item;
}

}  // namespace

NavigationTarget definitionAt(const QByteArray& text, int offset, const QString& mapPath)
{
    const MapSyntax syntax = readMapSyntaxText(text, mapPath);
    const Hit hit = nodeAt(syntax, offset);
    if (!hit.node || hit.node->values.isEmpty()) return {};
    const SyntaxNode& n = *hit.node;
    const MapDef paths = pathContext(syntax, mapPath);
    const QString value = n.text();
    const QString& name = n.name;
    if (name == QLatin1String("INCLUDE") || name == QLatin1String("SYMBOLSET") || name == QLatin1String("FONTSET") ||
        name == QLatin1String("TEMPLATE") || name == QLatin1String("HEADER") || name == QLatin1String("FOOTER") ||
        name == QLatin1String("EMPTY") || name == QLatin1String("KEYIMAGE") || name == QLatin1String("IMAGE"))
        return fileTarget(mapRelativePath(paths, value), QStringLiteral("%1 file").arg(name));
    if (name == QLatin1String("DATA") || name == QLatin1String("TILEINDEX")) {
        // A database layer's DATA is SQL, not a file.
        const SyntaxNode* type = hit.parent ? hit.parent->child(QStringLiteral("CONNECTIONTYPE")) : nullptr;
        if (type && type->text().compare(QLatin1String("OGR"), Qt::CaseInsensitive) != 0 &&
            type->text().compare(QLatin1String("LOCAL"), Qt::CaseInsensitive) != 0)
            return {};
        QString path = resolveDataPath(paths, value);
        if (QFileInfo(path).suffix().isEmpty() && QFileInfo::exists(path + QStringLiteral(".shp"))) path += QStringLiteral(".shp");
        return fileTarget(path, QStringLiteral("%1 file").arg(name));
    }
    if (name == QLatin1String("SYMBOL") && n.spec && n.spec->type == ValueType::Symbol)
        return symbolDefinition(syntax, paths, mapPath, value);
    if (name == QLatin1String("FONT")) return fontDefinition(syntax, paths, value);
    return {};
}

std::pair<QString, QString> referenceNameAt(const QByteArray& text, int offset)
{
    const MapSyntax syntax = readMapSyntaxText(text, QString());
    const Hit hit = nodeAt(syntax, offset);
    if (!hit.node) return {};
    const SyntaxNode& n = *hit.node;
    if (n.name == QLatin1String("FONT") && !n.values.isEmpty()) return {n.name, n.text()};
    if (n.name == QLatin1String("SYMBOL") && n.spec && n.spec->type == ValueType::Symbol && !n.values.isEmpty())
        return {n.name, n.text()};
    // On a SYMBOL block's NAME: the symbol it defines.
    if (n.name == QLatin1String("NAME") && n.block == QLatin1String("SYMBOL")) return {QStringLiteral("SYMBOL"), n.text()};
    return {};
}

QList<Reference> referencesTo(const QByteArray& text, const QString& mapPath, const QString& keyword, const QString& name)
{
    QList<Reference> out;
    const MapSyntax syntax = readMapSyntaxText(text, mapPath);
    syntax.visit([&](const SyntaxNode& n, const QList<const SyntaxNode*>&) {
        if (n.name != keyword || n.values.isEmpty() || n.opensBlock()) return;
        if (n.text().compare(name, Qt::CaseInsensitive) == 0) out.append({n.values.first().pos, n.block});
    });
    return out;
}

QList<OutlineItem> outlineOf(const QByteArray& text)
{
    QList<OutlineItem> out;
    for (const SyntaxNode& root : readMapSyntaxText(text, QString()).roots)
        if (root.opensBlock()) out.append(outlineItem(root));
    return out;
}

}  // namespace maptune
