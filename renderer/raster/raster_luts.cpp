#include "raster/raster_luts.h"

#include "mapfile/processing.h"

#include <QDir>
#include <QFileInfo>

namespace maptune {

RasterLuts::RasterLuts(const ProcessingOptions& options, const QString& mapDir)
{
    bool anyWide = false;
    for (int i = 0; i < 4; ++i) {
        Entry& e = m_entries[size_t(i)];
        Result<std::optional<QByteArray>> definition = Lut::definitionFor(options, i + 1, mapDir);
        e.readError = definition.message();
        e.definition = std::move(definition).valueOr(std::nullopt);
        if (!e.definition) continue;
        anyWide = anyWide || Lut::wants16Bit(*e.definition);
        Result<Lut> narrow = Lut::fromDefinition(*e.definition, i + 1, 255);
        e.narrowError = narrow.message();
        e.narrow = std::move(narrow).toOptional();
        const std::optional<QString> named = options.value(QStringLiteral("LUT_%1").arg(i + 1));
        const QString file = QDir(mapDir).absoluteFilePath(named.value_or(options.value(QStringLiteral("LUT"), {})));
        if (QFileInfo::exists(file) && !m_files.contains(file)) m_files << file;
    }
    // 16-bit tables only where some band is read as UInt16 (then all are).
    if (!anyWide) return;
    for (int i = 0; i < 4; ++i) {
        Entry& e = m_entries[size_t(i)];
        if (!e.definition) continue;
        Result<Lut> wide = Lut::fromDefinition(*e.definition, i + 1, 65535);
        e.wideError = wide.message();
        e.wide = std::move(wide).toOptional();
    }
}

QString RasterLuts::errorFor(int count, bool wide) const
{
    for (int i = 0; i < std::min(count, 4); ++i) {
        const Entry& e = m_entries[size_t(i)];
        if (!e.readError.isEmpty()) return e.readError;
        if (e.definition && !(wide ? e.wide : e.narrow)) return wide ? e.wideError : e.narrowError;
    }
    return {};
}

bool RasterLuts::wide(int count) const
{
    for (int i = 0; i < std::min(count, 4); ++i) {
        const Entry& e = m_entries[size_t(i)];
        if (e.definition && Lut::wants16Bit(*e.definition)) return true;
    }
    return false;
}

const Lut* RasterLuts::table(int colorIndex, bool wide) const
{
    if (colorIndex < 1 || colorIndex > 4) return nullptr;
    const Entry& e = m_entries[size_t(colorIndex - 1)];
    const std::optional<Lut>& t = wide ? e.wide : e.narrow;
    return t ? &*t : nullptr;
}

bool RasterLuts::any() const
{
    for (const Entry& e : m_entries)
        if (e.definition) return true;
    return false;
}

}  // namespace maptune
