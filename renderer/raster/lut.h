#pragma once
// MapServer's raster look-up tables (RFC 21, PROCESSING "LUT" / "LUT_n"):
// point lists "in:out,in:out" and GIMP curves files, built into 256- or
// 65536-entry byte tables. Semantics follow MapServer 8 exactly, including
// its quirks (implicit end point nMax:255, floor(v+0.5) rounding, no order
// check), because users tune their maps against MapServer's output.

#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace maptune {

class ProcessingOptions;

class Lut {
public:
    // A point list "in:out[,in:out]*" (newlines also separate pairs); maxIn is
    // 255 or 65535. Never fails: MapServer reads whatever atoi() makes of it.
    static Lut fromPoints(const QByteArray& text, int maxIn = 255);
    // A GIMP curves file's content for output colour index 1..4 (R, G, B, A):
    // the channel curve composed with the value curve. 8-bit only.
    static Result<Lut> fromGimpCurves(const QByteArray& text, int colorIndex);
    // Either of the above, chosen like MapServer: content starting "# GIMP" is a curves file.
    static Result<Lut> fromDefinition(const QByteArray& text, int colorIndex, int maxIn);
    // fromDefinition through a small per-thread cache: a served map builds
    // the same tables (GIMP curves are splines) for every request. Never null when ok.
    static Result<std::shared_ptr<const Lut>> cached(const QByteArray& text, int colorIndex, int maxIn);

    static bool isGimpCurves(const QByteArray& text);
    // True when MapServer would read the band as UInt16 for this definition:
    // not a GIMP file and the `in` of the last comma-separated tuple is > 255.
    static bool wants16Bit(const QByteArray& text);
    // The LUT text for output colour index 1..4 (LUT_n, else LUT), read from
    // a file relative to mapDir when it holds characters other than
    // "0123456789:, ". An empty optional (not an error): no LUT for that index.
    static Result<std::optional<QByteArray>> definitionFor(const ProcessingOptions& options, int colorIndex,
                                                           const QString& mapDir);

    int size() const { return int(m_table.size()); }
    uint8_t operator[](int i) const { return m_table[size_t(i)]; }
    const uint8_t* data() const { return m_table.data(); }

    // out[i] = table[in[i]]; in and out may alias for the 8-bit form.
    void apply(const uint8_t* in, uint8_t* out, size_t count) const;
    void apply(const uint16_t* in, uint8_t* out, size_t count) const;

private:
    explicit Lut(int entries) : m_table(size_t(entries), 0) {}
    std::vector<uint8_t> m_table;
};

}  // namespace maptune
