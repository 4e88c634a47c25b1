#pragma once
// The lint rules: a stable id for CI systems (SARIF ruleId), a name, a
// default severity, and the explanation and fix shown with every finding.

#include <QList>
#include <QString>

namespace maptune {

enum class LintSeverity { Error, Warning, Note };
enum class LintCategory { Correctness, Performance, Security, Compatibility };

struct LintRule {
    QString id;           // "MT101"
    QString name;         // "postgis-using-unique-srid"
    LintSeverity severity = LintSeverity::Warning;
    LintCategory category = LintCategory::Correctness;
    QString summary;      // one line
    QString explanation;  // why it matters
    QString fix;          // what to do
};

const QList<LintRule>& lintRules();
const LintRule* lintRule(const QString& id);
QString severityName(LintSeverity severity);   // error warning note
QString categoryName(LintCategory category);

}  // namespace maptune
