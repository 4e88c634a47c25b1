#pragma once
// What every lint check sees: the typed map, its syntax tree with INCLUDEs
// read in place, each LAYER's syntax node next to its LayerDef, and where
// findings go. Internal to the lint module.

#include "lint/lint_finding.h"
#include "lint/map_linter.h"
#include "mapfile/map_def.h"
#include "mapfile/syntax/map_syntax.h"

#include <QByteArray>
#include <QHash>

namespace maptune {

struct LintContext {
    const MapDef& map;
    const MapSyntax& syntax;
    const LintOptions& options;
    const SyntaxNode* mapNode = nullptr;
    QList<const SyntaxNode*> layerNodes;   // parallel to map.layers (null where they do not align)
    LintFindings findings;

    void add(const QString& ruleId, const SourcePos& pos, const QString& message,
             std::optional<LintEdit> edit = std::nullopt);
    const SyntaxNode* layerNode(int index) const { return index < layerNodes.size() ? layerNodes[index] : nullptr; }
    // The WEB block's METADATA node, or null.
    const SyntaxNode* webMetadata() const;

    // Edits built from tokens: replace a token, insert a line after a node.
    static LintEdit replaceToken(const Token& token, const QString& replacement, const QString& title);
    static LintEdit insertLineAfter(const SyntaxNode& node, int indent, const QString& line, const QString& title);
    static LintEdit removeNode(const SyntaxNode& node, const QString& title);
};

// The checks, grouped by what they look at.
void checkPostgisLayers(LintContext& context);   // MT101 MT102 MT103
void checkServiceSettings(LintContext& context); // MT104 MT108 MT110 MT111
void checkDataFiles(LintContext& context);       // MT105 MT106 MT107 MT112
void checkStyling(LintContext& context);         // MT109 MT113 MT114 MT115
void checkKeywords(LintContext& context);        // MT116

}  // namespace maptune
