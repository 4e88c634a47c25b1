#include "lint/map_linter.h"

#include "lint/lint_context.h"
#include "mapfile/map_loader.h"
#include "mapfile/map_validator.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace maptune {

namespace {

LintSeverity severityOf(Diagnostic::Severity s)
{
    switch (s) {
    case Diagnostic::Severity::Error: return LintSeverity::Error;
    case Diagnostic::Severity::Warning: return LintSeverity::Warning;
    case Diagnostic::Severity::Note: return LintSeverity::Note;
    }
    return LintSeverity::Error;
}

MapSyntax syntaxOf(const QByteArray& text, const QString& path)
{
    Diagnostics ignored;  // the loader reports the same lexer errors
    MapLexer lexer(text, path, QFileInfo(path).absolutePath(), ignored);
    std::vector<Token> tokens;
    for (Token t = lexer.next(); t.kind != Token::Kind::Eof; t = lexer.next()) tokens.push_back(t);
    return readMapSyntax(tokens);
}

LintFindings lint(const QByteArray& text, const QString& path, const LoadResult& loaded, const LintOptions& options)
{
    LintFindings findings;
    Diagnostics diagnostics = loaded.diagnostics;
    if (loaded.map) diagnostics += validateMap(*loaded.map);
    for (const Diagnostic& d : diagnostics) {
        findings.append({QStringLiteral("MT001"), severityOf(d.severity), d.pos, d.message, std::nullopt});
    }
    if (!loaded.map) return findings;

    const MapSyntax syntax = syntaxOf(text, path);
    LintContext context{*loaded.map, syntax, options};
    for (const SyntaxNode& root : syntax.roots)
        if (root.name == QLatin1String("MAP")) context.mapNode = &root;
    if (context.mapNode) {
        const QList<const SyntaxNode*> layers = context.mapNode->childrenNamed(QStringLiteral("LAYER"));
        if (layers.size() == loaded.map->layers.size()) context.layerNodes = layers;
    }
    checkKeywords(context);
    checkPostgisLayers(context);
    checkServiceSettings(context);
    checkDataFiles(context);
    checkStyling(context);
    findings += context.findings;

    std::stable_sort(findings.begin(), findings.end(), [](const LintFinding& a, const LintFinding& b) {
        return std::tie(a.pos.file, a.pos.line, a.pos.column, a.ruleId) <
               std::tie(b.pos.file, b.pos.line, b.pos.column, b.ruleId);
    });
    return findings;
}

}  // namespace

LintFindings lintMapFile(const QString& path, const LintOptions& options)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {{QStringLiteral("MT001"), LintSeverity::Error, {path, 0, 0},
                 QStringLiteral("cannot open mapfile: ") + file.errorString(), std::nullopt}};
    const QByteArray text = file.readAll();
    return lint(text, path, loadMapFile(path), options);
}

LintFindings lintMapText(const QByteArray& text, const QString& virtualPath, const LintOptions& options)
{
    return lint(text, virtualPath, parseMapText(text, virtualPath), options);
}

bool isLocalSource(const QString& source)
{
    const QString s = source.trimmed();
    if (s.isEmpty() || s.startsWith(QLatin1String("/vsi")) || s.contains(QLatin1String("://"))) return false;
    // "PG:", "WFS:", "NETCDF:\"f\":v", ... but not a Windows drive letter.
    const int colon = int(s.indexOf(QLatin1Char(':')));
    return colon < 0 || colon == 1;
}

void LintContext::add(const QString& ruleId, const SourcePos& pos, const QString& message, std::optional<LintEdit> edit)
{
    const LintRule* rule = lintRule(ruleId);
    Q_ASSERT(rule);
    findings.append({ruleId, rule ? rule->severity : LintSeverity::Warning, pos, message, std::move(edit)});
}

const SyntaxNode* LintContext::webMetadata() const
{
    const SyntaxNode* web = mapNode ? mapNode->child(QStringLiteral("WEB")) : nullptr;
    return web ? web->child(QStringLiteral("METADATA")) : nullptr;
}

LintEdit LintContext::replaceToken(const Token& token, const QString& replacement, const QString& title)
{
    return {token.pos.file, token.offset, token.length, replacement, title};
}

LintEdit LintContext::insertLineAfter(const SyntaxNode& node, int indent, const QString& line, const QString& title)
{
    return {node.keyword.pos.file, node.endOffset(), 0, QLatin1Char('\n') + QString(indent, QLatin1Char(' ')) + line, title};
}

LintEdit LintContext::removeNode(const SyntaxNode& node, const QString& title)
{
    return {node.keyword.pos.file, node.keyword.offset, node.endOffset() - node.keyword.offset, QString(), title};
}

}  // namespace maptune
