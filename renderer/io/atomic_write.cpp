#include "io/atomic_write.h"

#include <QDir>
#include <QObject>
#include <QSaveFile>

namespace maptune {

Status writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error(QObject::tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    // QSaveFile::commit() (Qt 6.4) does not notice a failure of the final
    // flush of its write buffer (a full disk): it would rename a truncated
    // file over the original. So flush first and give up on failure.
    const bool written = file.write(bytes) == bytes.size() && file.flush();
    if (!written) {
        const QString reason = file.errorString();
        file.cancelWriting();
        file.commit();  // removes the temporary file
        return Error(QObject::tr("cannot save %1: %2").arg(QDir::toNativeSeparators(path), reason));
    }
    if (!file.commit()) return Error(QObject::tr("cannot save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    return {};
}

}  // namespace maptune
