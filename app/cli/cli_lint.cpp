#include "cli/cli_commands.h"

#include "lint/lint_report.h"
#include "lint/map_linter.h"
#include "mapfile/schema/keyword_schema.h"

#include <CLI/CLI.hpp>

#include <QDir>
#include <QFileInfo>

#include <cstdio>
#include <memory>

namespace maptune::cli {

namespace {

struct LintArgs {
    std::string mapfile;
    std::string format = "text";
    std::string baseDir;
    bool noFiles = false;
};

int runLint(const LintArgs& a)
{
    const QString path = QString::fromStdString(a.mapfile);
    if (!QFileInfo(path).isFile()) {
        std::fprintf(stderr, "%s: error: no such mapfile\n", qPrintable(path));
        return 1;
    }
    LintOptions options;
    options.inspectFiles = !a.noFiles;
    const LintFindings findings = lintMapFile(path, options);
    QByteArray out;
    if (a.format == "json") {
        out = lintJson(findings);
    } else if (a.format == "sarif") {
        const QString base = a.baseDir.empty() ? QDir::currentPath() : QString::fromStdString(a.baseDir);
        out = lintSarif(findings, base, QStringLiteral(MAPTUNE_VERSION));
    } else {
        out = lintText(findings);
        out += QStringLiteral("%1: %2 finding%3\n")
                   .arg(path)
                   .arg(findings.size())
                   .arg(findings.size() == 1 ? QString() : QStringLiteral("s"))
                   .toUtf8();
    }
    if (!writeOutput(QStringLiteral("-"), out)) return 1;
    return hasLintErrors(findings) ? 1 : 0;
}

}  // namespace

CLI::App* addLintSubcommand(CLI::App& cli, std::function<int()>& run)
{
    auto a = std::make_shared<LintArgs>();
    auto* c = cli.add_subcommand("lint", "correctness, performance and security findings, each with a rule id, "
                                         "FILE:LINE:COL and a fix; exit 1 when any is an error");
    c->add_option("MAPFILE", a->mapfile, "the mapfile")->required();
    c->add_option("--format", a->format, "text | json | sarif")
        ->check(CLI::IsMember({"text", "json", "sarif"}))
        ->capture_default_str();
    c->add_option("--base-dir", a->baseDir, "sarif: file URIs relative to this directory (default: the current one)");
    c->add_flag("--no-files", a->noFiles, "do not open data files (indexes, overviews, attributes)");
    run = [a] { return runLint(*a); };
    return c;
}

CLI::App* addSchemaSubcommand(CLI::App& cli, std::function<int()>& run)
{
    auto json = std::make_shared<bool>(false);
    auto* c = cli.add_subcommand("schema", "the MapServer 8 mapfile keyword schema MapTune uses (blocks, keywords, "
                                           "value types, defaults, versions, descriptions)");
    c->add_flag("--json", *json, "print it as JSON (the only format; the flag keeps room for others)");
    run = [] { return writeOutput(QStringLiteral("-"), KeywordSchema::builtin().toJson()) ? 0 : 1; };
    return c;
}

}  // namespace maptune::cli
