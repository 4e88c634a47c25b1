#pragma once
// A raster layer's LUT / LUT_n directives, read once -- LUT files included --
// with their tables built for 8-bit input and, when a definition asks for it,
// for 16-bit input: what every render of a prepared layer shares instead of
// re-reading the file and looking the tables up by their text.

#include "raster/lut.h"

#include <QString>
#include <QStringList>

#include <array>
#include <optional>

namespace maptune {

class ProcessingOptions;

class RasterLuts {
public:
    RasterLuts() = default;
    RasterLuts(const ProcessingOptions& options, const QString& mapDir);

    // The first problem among colour indexes 1..count for that input width
    // (a LUT file that cannot be read, a curves file that does not parse),
    // empty when none: a LUT for a band the image does not use is no error.
    QString errorFor(int count, bool wide) const;
    // Any of the first `count` definitions wants UInt16 input (Lut::wants16Bit).
    bool wide(int count) const;
    // The table for colour index 1..4 and input width; null: no LUT there.
    const Lut* table(int colorIndex, bool wide) const;
    bool any() const;
    // LUT files read (for the hot-reload watcher).
    const QStringList& files() const { return m_files; }

private:
    struct Entry {
        std::optional<QByteArray> definition;
        std::optional<Lut> narrow, wide;
        QString narrowError, wideError, readError;
    };
    std::array<Entry, 4> m_entries;
    QStringList m_files;
};

}  // namespace maptune
