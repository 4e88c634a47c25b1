#pragma once
// One lint finding: a rule, where, what, and (when it is one edit) the fix.

#include "core/source_pos.h"
#include "lint/lint_rule.h"

#include <QList>
#include <QString>

#include <optional>

namespace maptune {

// Replace `length` bytes at byte `offset` of `file` with `replacement`
// (length 0: an insertion). Positions come from the tokens as read.
struct LintEdit {
    QString file;
    int offset = 0;
    int length = 0;
    QString replacement;
    QString title;        // "Add PROCESSING \"CLOSE_CONNECTION=DEFER\""
};

struct LintFinding {
    QString ruleId;
    LintSeverity severity = LintSeverity::Warning;
    SourcePos pos;
    QString message;      // this occurrence, naming the layer or keyword
    std::optional<LintEdit> edit;

    QString toString() const;   // FILE:LINE:COL: warning: message [MT101]
};

using LintFindings = QList<LintFinding>;

inline bool hasLintErrors(const LintFindings& findings)
{
    for (const LintFinding& f : findings)
        if (f.severity == LintSeverity::Error) return true;
    return false;
}

}  // namespace maptune
