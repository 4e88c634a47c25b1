#pragma once
// Writing a whole file so that it is either replaced completely or left as it
// was: the bytes go to a temporary file beside it that is renamed over the
// target only when every byte reached it (QSaveFile).

#include "core/result.h"

#include <QByteArray>
#include <QString>

namespace maptune {

// An error naming the file when it could not be written (missing folder, no
// permission, disk full); the old file is then untouched.
Status writeFileAtomically(const QString& path, const QByteArray& bytes);

}  // namespace maptune
