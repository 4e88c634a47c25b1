#include "mapfile/syntax/mapfile_edits.h"

#include "mapfile/syntax/map_syntax.h"

namespace maptune {

namespace {

// The text's syntax, kept with the text its offsets index.
struct Parsed {
    const QByteArray& text;
    MapSyntax syntax;
    explicit Parsed(const QByteArray& t) : text(t), syntax(readMapSyntaxText(t, QString())) {}

    const SyntaxNode* layer(const QString& name) const
    {
        for (const SyntaxNode& root : syntax.roots)
            if (root.name == QLatin1String("MAP"))
                for (const SyntaxNode* l : root.childrenNamed(QStringLiteral("LAYER")))
                    if (const SyntaxNode* n = l->child(QStringLiteral("NAME")); n && n->text() == name) return l;
        return nullptr;
    }
    const SyntaxNode* cls(const QString& layerName, int index) const
    {
        const SyntaxNode* l = layer(layerName);
        const QList<const SyntaxNode*> classes = l ? l->childrenNamed(QStringLiteral("CLASS")) : QList<const SyntaxNode*>();
        return index >= 0 && index < classes.size() ? classes[index] : nullptr;
    }
    const SyntaxNode* style(const QString& layerName, int classIndex, int index) const
    {
        const SyntaxNode* c = cls(layerName, classIndex);
        const QList<const SyntaxNode*> styles = c ? c->childrenNamed(QStringLiteral("STYLE")) : QList<const SyntaxNode*>();
        return index >= 0 && index < styles.size() ? styles[index] : nullptr;
    }

    int lineStart(int offset) const { return int(text.lastIndexOf('\n', offset - 1) + 1); }
    // After the newline that ends the line holding offset (or the text's end).
    int lineEnd(int offset) const
    {
        const int nl = int(text.indexOf('\n', offset));
        return nl < 0 ? int(text.size()) : nl + 1;
    }
    // The leading white space of the keyword's line.
    QByteArray indentOf(const SyntaxNode& n) const
    {
        const int start = lineStart(n.keyword.offset);
        int end = start;
        while (end < n.keyword.offset && (text[end] == ' ' || text[end] == '\t')) ++end;
        return text.mid(start, end - start);
    }
    // Nothing but white space or a # comment from `from` to the end of its line.
    bool restOfLineIsEmpty(int from) const
    {
        const QByteArray rest = text.mid(from, lineEnd(from) - from).trimmed();
        return rest.isEmpty() || rest.startsWith('#');
    }
    // Whole lines of a block, when it starts its line and ends its last one.
    std::pair<int, int> lines(const SyntaxNode& n) const { return {lineStart(n.keyword.offset), lineEnd(n.endOffset())}; }
    // The block starts its line and ends its last one (a comment may follow its END).
    bool ownsItsLines(const SyntaxNode& n) const
    {
        const int start = lineStart(n.keyword.offset);
        return text.mid(start, n.keyword.offset - start).trimmed().isEmpty() && restOfLineIsEmpty(n.endOffset());
    }
};

std::optional<TextEdit> duplicate(const Parsed& p, const SyntaxNode* n)
{
    if (!n || !n->end) return std::nullopt;
    if (p.ownsItsLines(*n)) {
        const auto [start, end] = p.lines(*n);
        QByteArray copy = p.text.mid(start, end - start);
        if (!copy.endsWith('\n')) copy.prepend('\n');
        return TextEdit{end, 0, copy};
    }
    const int end = n->endOffset();
    return TextEdit{end, 0, ' ' + p.text.mid(n->keyword.offset, end - n->keyword.offset)};
}

std::optional<TextEdit> remove(const Parsed& p, const SyntaxNode* n)
{
    if (!n || !n->end) return std::nullopt;
    if (p.ownsItsLines(*n)) {
        const auto [start, end] = p.lines(*n);
        return TextEdit{start, end - start, {}};
    }
    return TextEdit{n->keyword.offset, n->endOffset() - n->keyword.offset, {}};
}

// A line "indent + line" inserted after the line of `after`'s last token.
TextEdit lineAfter(const Parsed& p, const SyntaxNode& after, const QByteArray& indent, const QByteArray& line)
{
    const int end = p.lineEnd(after.endOffset());
    const bool atEof = end == p.text.size() && !p.text.endsWith('\n');
    return TextEdit{end, 0, (atEof ? "\n" : "") + indent + line + (atEof ? "" : "\n")};
}

}  // namespace

int classCount(const QByteArray& text, const QString& layerName)
{
    const Parsed p(text);
    const SyntaxNode* layer = p.layer(layerName);
    return layer ? int(layer->childrenNamed(QStringLiteral("CLASS")).size()) : -1;
}

int styleCount(const QByteArray& text, const QString& layerName, int classIndex)
{
    const Parsed p(text);
    const SyntaxNode* c = p.cls(layerName, classIndex);
    return c ? int(c->childrenNamed(QStringLiteral("STYLE")).size()) : -1;
}

std::optional<TextEdit> setLayerStatus(const QByteArray& text, const QString& layerName, const QString& status)
{
    const Parsed p(text);
    const SyntaxNode* layer = p.layer(layerName);
    if (!layer) return std::nullopt;
    const QByteArray value = status.toUpper().toUtf8();
    if (const SyntaxNode* s = layer->child(QStringLiteral("STATUS")); s && !s->values.isEmpty())
        return TextEdit{s->values.first().offset, s->values.first().length, value};
    const SyntaxNode* name = layer->child(QStringLiteral("NAME"));
    if (!name) return std::nullopt;
    // NAME sharing its line with more of the layer: STATUS goes right after it.
    const bool nameStartsLine = p.indentOf(*name).size() == name->keyword.offset - p.lineStart(name->keyword.offset);
    if (!nameStartsLine || !p.restOfLineIsEmpty(name->endOffset()))
        return TextEdit{name->endOffset(), 0, " STATUS " + value};
    return lineAfter(p, *name, p.indentOf(*name), "STATUS " + value);
}

std::optional<TextEdit> moveLayer(const QByteArray& text, const QString& layerName, const QString& before)
{
    const Parsed p(text);
    const SyntaxNode* layer = p.layer(layerName);
    if (!layer || !layer->end || !p.ownsItsLines(*layer)) return std::nullopt;
    const auto [start, end] = p.lines(*layer);
    int target = -1;
    if (before.isEmpty()) {
        for (const SyntaxNode& root : p.syntax.roots)
            if (root.name == QLatin1String("MAP"))
                for (const SyntaxNode* l : root.childrenNamed(QStringLiteral("LAYER")))
                    target = p.ownsItsLines(*l) ? p.lines(*l).second : -1;
    } else if (const SyntaxNode* b = p.layer(before); b && p.ownsItsLines(*b)) {
        target = p.lines(*b).first;
    }
    if (target < 0 || (target >= start && target <= end)) return std::nullopt;  // nowhere, or where it is
    QByteArray block = text.mid(start, end - start);
    if (!block.endsWith('\n')) block += '\n';
    if (target < start)  // up: [target, start) shifts down behind the block
        return TextEdit{target, end - target, block + text.mid(target, start - target)};
    return TextEdit{start, target - start, text.mid(end, target - end) + block};
}

std::optional<TextEdit> addClass(const QByteArray& text, const QString& layerName)
{
    const Parsed p(text);
    const SyntaxNode* layer = p.layer(layerName);
    if (!layer || !layer->end) return std::nullopt;
    const QByteArray indent = p.indentOf(*layer) + "  ";
    const QByteArray block = indent + "CLASS\n" + indent + "  NAME \"new class\"\n" + indent + "  STYLE\n" + indent +
                             "    COLOR 128 128 128\n" + indent + "  END\n" + indent + "END\n";
    const int at = p.lineStart(layer->end->offset);
    if (!text.mid(at, layer->end->offset - at).trimmed().isEmpty()) return std::nullopt;  // END shares its line
    return TextEdit{at, 0, block};
}

std::optional<TextEdit> duplicateClass(const QByteArray& text, const QString& layer, int classIndex)
{
    const Parsed p(text);
    return duplicate(p, p.cls(layer, classIndex));
}

std::optional<TextEdit> removeClass(const QByteArray& text, const QString& layer, int classIndex)
{
    const Parsed p(text);
    return remove(p, p.cls(layer, classIndex));
}

std::optional<TextEdit> duplicateStyle(const QByteArray& text, const QString& layer, int classIndex, int styleIndex)
{
    const Parsed p(text);
    return duplicate(p, p.style(layer, classIndex, styleIndex));
}

std::optional<TextEdit> removeStyle(const QByteArray& text, const QString& layer, int classIndex, int styleIndex)
{
    const Parsed p(text);
    return remove(p, p.style(layer, classIndex, styleIndex));
}

std::optional<TextEdit> setStyleValue(const QByteArray& text, const QString& layer, int classIndex, int styleIndex,
                                      const QString& keyword, const QString& value)
{
    const Parsed p(text);
    const SyntaxNode* style = p.style(layer, classIndex, styleIndex);
    if (!style || !style->end) return std::nullopt;
    const QByteArray v = value.toUtf8();
    if (const SyntaxNode* k = style->child(keyword.toUpper()); k && !k->values.isEmpty()) {
        const int from = k->values.first().offset;
        const int to = k->values.last().offset + k->values.last().length;
        return TextEdit{from, to - from, v};
    }
    const QByteArray line = keyword.toUpper().toUtf8() + ' ' + v;
    if (style->end->pos.line == style->keyword.pos.line)  // STYLE ... END on one line
        return TextEdit{style->keyword.offset + style->keyword.length, 0, ' ' + line};
    const int at = p.lineEnd(style->keyword.offset);
    return TextEdit{at, 0, p.indentOf(*style) + "  " + line + '\n'};
}

}  // namespace maptune
