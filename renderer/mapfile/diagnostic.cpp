#include "mapfile/diagnostic.h"

namespace maptune {

QString Diagnostic::toString() const
{
    const char* kind = severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
    QString where = pos.file.isEmpty() ? QStringLiteral("<mapfile>") : pos.file;
    if (pos.line > 0) {
        where += QLatin1Char(':') + QString::number(pos.line);
        if (pos.column > 0) where += QLatin1Char(':') + QString::number(pos.column);
    }
    return QStringLiteral("%1: %2: %3").arg(where, QLatin1String(kind), message);
}

}  // namespace maptune
