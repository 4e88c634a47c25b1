#include "cli/cli_commands.h"

#include "io/atomic_write.h"

#include <QFile>
#include <QFileInfo>

#include <cmath>
#include <cstdio>

namespace maptune::cli {

void printError(const QString& message)
{
    std::fprintf(stderr, "maptune-cli: %s\n", qPrintable(message));
}

std::optional<Rect> parseBbox(const QString& text)
{
    const QStringList parts = text.split(QLatin1Char(','));
    if (parts.size() != 4) return std::nullopt;
    double v[4];
    for (int i = 0; i < 4; ++i) {
        bool ok = false;
        v[i] = parts[i].trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(v[i])) return std::nullopt;
    }
    const Rect r{v[0], v[1], v[2], v[3]};
    if (!r.isValid()) return std::nullopt;
    return r;
}

bool writeOutput(const QString& path, const QByteArray& bytes)
{
    if (path == QLatin1String("-")) {
        const size_t n = std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
        std::fflush(stdout);
        return n == size_t(bytes.size());
    }
    // Devices and pipes (/dev/null, /dev/stdout, a FIFO) cannot be replaced
    // atomically: write them in place.
    const QFileInfo info(path);
    if (info.exists() && !info.isFile()) {
        QFile dev(path);
        if (!dev.open(QIODevice::WriteOnly) || dev.write(bytes) != bytes.size()) {
            printError(QStringLiteral("cannot write '%1': %2").arg(path, dev.errorString()));
            return false;
        }
        return true;
    }
    // Atomic: a reader never sees half an image.
    if (const Status written = writeFileAtomically(path, bytes); !written) {
        printError(written.message());
        return false;
    }
    return true;
}

}  // namespace maptune::cli
