#pragma once
// A place in a source file, for diagnostics.

#include <QString>

namespace maptune {

// Where a construct came from, for diagnostics (FILE:LINE:COL, 1-based).
struct SourcePos {
    QString file;
    int line = 0;
    int column = 0;
    bool operator==(const SourcePos&) const = default;
};

}  // namespace maptune
