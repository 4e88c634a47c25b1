#pragma once
// Writing a whole file so that it is either replaced completely or left as it
// was: the bytes go to a temporary file beside it that is renamed over the
// target only when every byte reached it (QSaveFile).

#include <QByteArray>
#include <QString>

namespace maptune {

// False, with a message naming the file, when the file could not be written
// (missing folder, no permission, disk full); the old file is then untouched.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace maptune
