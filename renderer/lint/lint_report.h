#pragma once
// Lint findings for people and for CI systems: text (GCC style), JSON, and
// SARIF 2.1.0 (what GitHub code scanning, GitLab and Azure DevOps read).

#include "lint/lint_finding.h"

#include <QByteArray>
#include <QString>

namespace maptune {

QByteArray lintText(const LintFindings& findings);
QByteArray lintJson(const LintFindings& findings);
// baseDir: artifact URIs are made relative to it when the file lies inside.
QByteArray lintSarif(const LintFindings& findings, const QString& baseDir, const QString& toolVersion);

}  // namespace maptune
