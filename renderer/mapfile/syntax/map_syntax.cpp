#include "mapfile/syntax/map_syntax.h"

#include <QFile>
#include <QFileInfo>

namespace maptune {

namespace {

bool isNumberWord(const Token& t)
{
    if (t.kind != Token::Kind::Word) return false;
    bool ok = false;
    t.text.toDouble(&ok);
    return ok;
}

// A token that can only be a value: never a keyword of any block.
bool isPlainValue(const Token& t) { return t.kind != Token::Kind::Word || isNumberWord(t); }

const KeywordSpec& includeSpec()
{
    static const KeywordSpec spec = [] {
        KeywordSpec s;
        s.name = QStringLiteral("INCLUDE");
        s.type = ValueType::Path;
        s.typeName = QStringLiteral("path");
        s.repeatable = true;
        s.description = QStringLiteral("Reads another mapfile fragment in place of this line, relative to the main mapfile.");
        return s;
    }();
    return spec;
}

class SyntaxReader {
public:
    SyntaxReader(const std::vector<Token>& tokens, const KeywordSchema& schema) : m_schema(schema)
    {
        m_tokens.reserve(tokens.size());
        for (const Token& t : tokens)
            if (t.kind != Token::Kind::Comment) m_tokens.push_back(&t);
    }

    QList<SyntaxNode> readTop()
    {
        QList<SyntaxNode> roots;
        while (m_at < m_tokens.size()) {
            const Token& t = *m_tokens[m_at];
            SyntaxNode node;
            node.keyword = t;
            node.name = t.upper();
            ++m_at;
            node.spec = m_schema.topLevel().keyword(node.name);
            // An INCLUDE fragment's top level holds LAYERs, CLASSes, SYMBOLs...
            if (!node.spec) node.spec = blockKeyword(node.name);
            if (node.spec) readChildren(node, m_schema.blockOpenedBy(*node.spec));
            else takeTrailingValues(node);
            roots.append(std::move(node));
        }
        return roots;
    }

private:
    // The keyword that opens the block `upper` wherever the schema allows it.
    const KeywordSpec* blockKeyword(const QString& upper) const
    {
        const BlockSpec* block = m_schema.block(upper);
        for (const QString& parent : block ? block->parents : QStringList())
            if (const KeywordSpec* k = m_schema.keyword(parent, upper); k && k->type == ValueType::Block) return k;
        return nullptr;
    }

    const Token* peek() const { return m_at < m_tokens.size() ? m_tokens[m_at] : nullptr; }
    bool atEnd() const
    {
        const Token* t = peek();
        return !t || t->isWord("END");
    }

    void readChildren(SyntaxNode& node, const BlockSpec* block)
    {
        while (const Token* t = peek()) {
            if (t->isWord("END")) {
                node.end = *t;
                ++m_at;
                return;
            }
            SyntaxNode child;
            child.keyword = *t;
            child.name = t->upper();
            child.block = node.name;
            ++m_at;
            child.spec = child.name == QLatin1String("INCLUDE") ? &includeSpec()
                         : block                                 ? block->keyword(child.name)
                                                                 : nullptr;
            readValue(child, block);
            node.children.append(std::move(child));
        }
    }

    // A keyword of the block on a later line is the next keyword, not a
    // missing value (as while someone is typing "STATUS" below "LABELCACHE").
    bool startsNextKeyword(const SyntaxNode& node, const BlockSpec* block) const
    {
        const Token* t = peek();
        return t->kind == Token::Kind::Word && t->pos.line > node.keyword.pos.line && block &&
               block->keyword(t->upper()) && !node.spec->values.contains(t->upper());
    }
    void takeValues(SyntaxNode& node, int count, const BlockSpec* block)
    {
        for (int i = 0; i < count && !atEnd() && !startsNextKeyword(node, block); ++i)
            node.values.append(*m_tokens[m_at++]);
    }
    void takeNumbers(SyntaxNode& node, int most)
    {
        for (int i = 0; i < most && peek() && (isNumberWord(*peek()) || peek()->kind == Token::Kind::Attr); ++i)
            node.values.append(*m_tokens[m_at++]);
    }
    // Anything after the expected values that cannot be a keyword belongs to this one.
    void takeTrailingValues(SyntaxNode& node)
    {
        while (peek() && isPlainValue(*peek())) node.values.append(*m_tokens[m_at++]);
    }
    void takeUntilEnd(SyntaxNode& node)
    {
        while (const Token* t = peek()) {
            ++m_at;
            if (t->isWord("END")) {
                node.end = *t;
                return;
            }
            node.values.append(*t);
        }
    }

    void readValue(SyntaxNode& node, const BlockSpec* block)
    {
        if (!node.spec) {
            takeTrailingValues(node);
            return;
        }
        switch (node.spec->type) {
        case ValueType::Block:
            readChildren(node, m_schema.blockOpenedBy(*node.spec));
            return;
        case ValueType::KeyValues:
        case ValueType::Strings:
        case ValueType::Numbers:
            takeUntilEnd(node);
            return;
        case ValueType::Color:
            if (peek() && isNumberWord(*peek())) takeNumbers(node, 4);
            else takeValues(node, 1, block);
            break;
        case ValueType::Pair:
            takeNumbers(node, 2);
            break;
        case ValueType::Extent:
            takeNumbers(node, 4);
            break;
        case ValueType::KeyValue:
            takeValues(node, 2, block);
            break;
        case ValueType::Flag:
            break;
        default:
            takeValues(node, 1, block);
            break;
        }
        takeTrailingValues(node);
    }

    const KeywordSchema& m_schema;
    std::vector<const Token*> m_tokens;
    size_t m_at = 0;
};

void visitNodes(const QList<SyntaxNode>& nodes, QList<const SyntaxNode*>& ancestors, const MapSyntax::Visitor& visitor)
{
    for (const SyntaxNode& n : nodes) {
        visitor(n, ancestors);
        if (n.children.isEmpty()) continue;
        ancestors.append(&n);
        visitNodes(n.children, ancestors, visitor);
        ancestors.removeLast();
    }
}

}  // namespace

int SyntaxNode::endOffset() const
{
    if (end) return end->offset + end->length;
    if (!children.isEmpty()) return children.last().endOffset();
    if (!values.isEmpty()) return values.last().offset + values.last().length;
    return keyword.offset + keyword.length;
}

const SyntaxNode* SyntaxNode::child(const QString& upper) const
{
    for (const SyntaxNode& c : children)
        if (c.name == upper) return &c;
    return nullptr;
}

QList<const SyntaxNode*> SyntaxNode::childrenNamed(const QString& upper) const
{
    QList<const SyntaxNode*> out;
    for (const SyntaxNode& c : children)
        if (c.name == upper) out.append(&c);
    return out;
}

void MapSyntax::visit(const Visitor& visitor) const
{
    QList<const SyntaxNode*> ancestors;
    visitNodes(roots, ancestors, visitor);
}

MapSyntax readMapSyntax(const std::vector<Token>& tokens, const KeywordSchema& schema)
{
    MapSyntax syntax{SyntaxReader(tokens, schema).readTop()};
    return syntax;
}

MapSyntax readMapSyntaxText(const QByteArray& text, const QString& file, const KeywordSchema& schema)
{
    Diagnostics ignored;
    return readMapSyntax(MapLexer::scanSourceTokens(text, file, ignored), schema);
}

MapSyntax readMapSyntaxFile(const QString& path, Diagnostics& diags, const KeywordSchema& schema)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        diags.append({Diagnostic::Severity::Error, {path, 0, 0}, QStringLiteral("cannot open mapfile: ") + file.errorString()});
        return {};
    }
    MapLexer lexer(file.readAll(), path, QFileInfo(path).absolutePath(), diags);
    std::vector<Token> tokens;
    for (Token t = lexer.next(); t.kind != Token::Kind::Eof; t = lexer.next()) tokens.push_back(t);
    return readMapSyntax(tokens, schema);
}

}  // namespace maptune
