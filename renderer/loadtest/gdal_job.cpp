#include "loadtest/gdal_job.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cpl_error.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <unistd.h>

namespace maptune::gdaljob {

int gdalProgress(double complete, const char* message, void* data)
{
    auto* p = static_cast<Progress*>(data);
    if (p->report) {
        QString stage = p->stage;
        if (message && *message && stage.isEmpty()) stage = QString::fromUtf8(message);
        p->report(p->offset + p->scale * std::clamp(complete, 0.0, 1.0), stage);
    }
    return p->cancel.isCancelled() ? 0 : 1;
}

QString lastError(const QString& fallback)
{
    const char* msg = CPLGetLastErrorMsg();
    return msg && *msg ? QString::fromUtf8(msg) : fallback;
}

QString temporaryPath(const QString& destination)
{
    static std::atomic_int counter{0};
    const QFileInfo fi(destination);
    return fi.absoluteDir().filePath(QStringLiteral(".%1.part-%2-%3.%4")
                                         .arg(fi.completeBaseName())
                                         .arg(::getpid())
                                         .arg(counter.fetch_add(1))
                                         .arg(fi.suffix()));
}

Status publish(const QString& tmp, const QString& destination)
{
    if (std::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(destination).constData()) != 0) {
        removeWithSideFiles(tmp);
        return Error(QStringLiteral("cannot rename the finished file to '%1': %2")
                         .arg(destination, QString::fromLocal8Bit(std::strerror(errno))));
    }
    return {};
}

void removeWithSideFiles(const QString& path)
{
    for (const char* side : {"", ".ovr", ".aux.xml", "-journal", "-wal", "-shm"})
        QFile::remove(path + QLatin1String(side));
}

}  // namespace maptune::gdaljob
