#pragma once
// Formats a mapfile's own text without losing anything its author wrote:
// comments (whole-line and trailing), blank lines between groups (a run of
// them becomes one), every value as written -- defaults included -- and
// INCLUDE directives as they are (included files are not expanded). What it
// changes: indentation (two spaces a block level, from the parser's reading
// of the blocks), upper-case keywords and enumerated values, 'single' quotes
// to "double" where that reads the same, one space between tokens, no
// trailing whitespace. Line breaks stay where they were.
//
// parse(format(t)) == parse(t) and format(format(t)) == format(t).
// (writeMapFile, by contrast, prints a model built in code.)

#include "mapfile/diagnostic.h"

#include <QByteArray>
#include <QString>

namespace maptune {

struct FormatResult {
    QString text;              // empty unless ok()
    Diagnostics diagnostics;   // the parser's; errors mean nothing was formatted
    bool ok() const { return !hasErrors(diagnostics); }
};

// path names the text in diagnostics and resolves its INCLUDEs, SYMBOLSET and
// FONTSET, as for parseMapText(); may be empty.
FormatResult formatMapText(const QByteArray& text, const QString& path);

}  // namespace maptune
