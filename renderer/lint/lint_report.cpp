#include "lint/lint_report.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

namespace maptune {

namespace {

QString sarifLevel(LintSeverity s)
{
    return s == LintSeverity::Error ? QStringLiteral("error") : s == LintSeverity::Warning ? QStringLiteral("warning")
                                                                                          : QStringLiteral("note");
}

QJsonObject text(const QString& s) { return QJsonObject{{QStringLiteral("text"), s}}; }

// Relative to SRCROOT (baseDir) when the file is inside it, else a file: URI.
QJsonObject artifactLocation(const QString& file, const QString& baseDir)
{
    const QString absolute = QDir(baseDir).absoluteFilePath(file);
    const QString relative = QDir(baseDir).relativeFilePath(absolute);
    if (!baseDir.isEmpty() && !relative.startsWith(QLatin1String("..")))
        return {{QStringLiteral("uri"), QString::fromUtf8(QUrl::toPercentEncoding(relative, "/"))},
                {QStringLiteral("uriBaseId"), QStringLiteral("SRCROOT")}};
    return {{QStringLiteral("uri"), QUrl::fromLocalFile(absolute).toString(QUrl::FullyEncoded)}};
}

QJsonObject region(const SourcePos& pos)
{
    QJsonObject r{{QStringLiteral("startLine"), std::max(pos.line, 1)}};
    if (pos.column > 0) r.insert(QStringLiteral("startColumn"), pos.column);
    return r;
}

QJsonObject ruleDescriptor(const LintRule& rule)
{
    return QJsonObject{
        {QStringLiteral("id"), rule.id},
        {QStringLiteral("name"), rule.name},
        {QStringLiteral("shortDescription"), text(rule.summary)},
        {QStringLiteral("fullDescription"), text(rule.explanation)},
        {QStringLiteral("help"), text(rule.fix)},
        {QStringLiteral("defaultConfiguration"), QJsonObject{{QStringLiteral("level"), sarifLevel(rule.severity)}}},
        {QStringLiteral("properties"), QJsonObject{{QStringLiteral("category"), categoryName(rule.category)}}},
    };
}

}  // namespace

QByteArray lintText(const LintFindings& findings)
{
    QByteArray out;
    for (const LintFinding& f : findings) {
        out += f.toString().toUtf8() + '\n';
        if (const LintRule* rule = lintRule(f.ruleId)) out += "  fix: " + rule->fix.toUtf8() + '\n';
    }
    return out;
}

QByteArray lintJson(const LintFindings& findings)
{
    QJsonArray array;
    for (const LintFinding& f : findings) {
        QJsonObject o{{QStringLiteral("rule"), f.ruleId},
                      {QStringLiteral("severity"), severityName(f.severity)},
                      {QStringLiteral("file"), f.pos.file},
                      {QStringLiteral("line"), f.pos.line},
                      {QStringLiteral("column"), f.pos.column},
                      {QStringLiteral("message"), f.message}};
        if (const LintRule* rule = lintRule(f.ruleId)) {
            o.insert(QStringLiteral("name"), rule->name);
            o.insert(QStringLiteral("fix"), rule->fix);
        }
        if (f.edit)
            o.insert(QStringLiteral("edit"), QJsonObject{{QStringLiteral("title"), f.edit->title},
                                                          {QStringLiteral("offset"), f.edit->offset},
                                                          {QStringLiteral("length"), f.edit->length},
                                                          {QStringLiteral("replacement"), f.edit->replacement}});
        array.append(o);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Indented);
}

QByteArray lintSarif(const LintFindings& findings, const QString& baseDir, const QString& toolVersion)
{
    QJsonArray rules;
    QHash<QString, int> ruleIndex;
    for (const LintRule& rule : lintRules()) {
        ruleIndex.insert(rule.id, int(rules.size()));
        rules.append(ruleDescriptor(rule));
    }
    QJsonArray results;
    for (const LintFinding& f : findings) {
        QJsonObject result{
            {QStringLiteral("ruleId"), f.ruleId},
            {QStringLiteral("ruleIndex"), ruleIndex.value(f.ruleId)},
            {QStringLiteral("level"), sarifLevel(f.severity)},
            {QStringLiteral("message"), text(f.message)},
            {QStringLiteral("locations"),
             QJsonArray{QJsonObject{{QStringLiteral("physicalLocation"),
                                     QJsonObject{{QStringLiteral("artifactLocation"), artifactLocation(f.pos.file, baseDir)},
                                                 {QStringLiteral("region"), region(f.pos)}}}}}},
        };
        if (f.edit && f.edit->offset >= 0) {
            const QJsonObject deleted{{QStringLiteral("byteOffset"), f.edit->offset},
                                      {QStringLiteral("byteLength"), f.edit->length}};
            const QJsonObject replacement{{QStringLiteral("deletedRegion"), deleted},
                                          {QStringLiteral("insertedContent"), text(f.edit->replacement)}};
            const QJsonObject change{
                {QStringLiteral("artifactLocation"), artifactLocation(f.edit->file, baseDir)},
                {QStringLiteral("replacements"), QJsonArray{replacement}}};
            result.insert(QStringLiteral("fixes"), QJsonArray{QJsonObject{{QStringLiteral("description"), text(f.edit->title)},
                                                                           {QStringLiteral("artifactChanges"), QJsonArray{change}}}});
        }
        results.append(result);
    }
    const QJsonObject driver{{QStringLiteral("name"), QStringLiteral("maptune-lint")},
                             {QStringLiteral("version"), toolVersion},
                             {QStringLiteral("rules"), rules}};
    QJsonObject run{{QStringLiteral("tool"), QJsonObject{{QStringLiteral("driver"), driver}}},
                    {QStringLiteral("results"), results}};
    if (!baseDir.isEmpty())
        run.insert(QStringLiteral("originalUriBaseIds"),
                   QJsonObject{{QStringLiteral("SRCROOT"),
                                QJsonObject{{QStringLiteral("uri"), QUrl::fromLocalFile(QDir(baseDir).absolutePath() + QLatin1Char('/')).toString()}}}});
    const QJsonObject log{{QStringLiteral("$schema"), QStringLiteral("https://json.schemastore.org/sarif-2.1.0.json")},
                          {QStringLiteral("version"), QStringLiteral("2.1.0")},
                          {QStringLiteral("runs"), QJsonArray{run}}};
    return QJsonDocument(log).toJson(QJsonDocument::Indented);
}

}  // namespace maptune
