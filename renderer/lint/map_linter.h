#pragma once
// Lints a mapfile: every rule of lintRules() over its typed model, its
// syntax (so that each finding points at the keyword or value to change)
// and the files it reads. Never touches a database.

#include "lint/lint_finding.h"

#include <QByteArray>
#include <QString>

namespace maptune {

struct LintOptions {
    bool inspectFiles = true;      // open rasters and vector files (overviews, tiling, attributes)
    int denseFeatureCount = 5000;  // MT109: a layer with more features is dense
};

// Whether lint may open what a layer reads: local files only, never a GDAL
// virtual file system, a URL or a driver-prefixed source (no network
// access while linting, e.g. an untrusted mapfile in CI).
bool isLocalSource(const QString& source);

// Findings in file order (file, line, column), then by rule.
LintFindings lintMapFile(const QString& path, const LintOptions& options = {});
// The same for text not saved yet (the editor); virtualPath names it and is
// the base of relative paths, as for parseMapText.
LintFindings lintMapText(const QByteArray& text, const QString& virtualPath, const LintOptions& options = {});

}  // namespace maptune
