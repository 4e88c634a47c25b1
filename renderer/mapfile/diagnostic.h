#pragma once
// Mapfile problems, collected rather than thrown, printed GCC-style:
//   maps/roads.map:42:17: error: unknown keyword 'STYEL' in CLASS (did you mean 'STYLE'?)

#include "mapfile/map_def.h"

#include <QList>
#include <QString>

#include <optional>

namespace maptune {

struct Diagnostic {
    enum class Severity { Error, Warning, Note };
    // A correction an editor can apply in one step: the text `original`
    // written at pos should read `replacement` (a "did you mean").
    struct Fix {
        QString original;
        QString replacement;
    };
    Severity severity = Severity::Error;
    SourcePos pos;
    QString message;
    std::optional<Fix> fix = std::nullopt;

    QString toString() const;
    bool isError() const { return severity == Severity::Error; }
};

using Diagnostics = QList<Diagnostic>;

inline bool hasErrors(const Diagnostics& ds)
{
    for (const auto& d : ds)
        if (d.isError()) return true;
    return false;
}

}  // namespace maptune
