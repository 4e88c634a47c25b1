#pragma once
// What a load run asks for: the bbox generator (a preset, random windows in an
// extent, a jittered centre, or a replayed file), the image size and the seed.
// Resolved from command-line style options exactly as ../shared/bench's
// benchlib.bbox_spec_from_args does, so the same options mean the same
// sequence in both tools.

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <optional>
#include <variant>

namespace maptune {

struct Bbox {
    double minx = 0, miny = 0, maxx = 0, maxy = 0;
    bool operator==(const Bbox&) const = default;
};

struct BboxSpec {
    enum class Mode { Extent, Jitter, File };
    Mode mode = Mode::Extent;
    int width = 512, height = 512;
    std::uint64_t seed = 42;
    QString preset;                          // "raster", "roads" or empty
    std::array<double, 4> extent{};          // Extent: windows fully inside
    std::array<double, 2> res{};             // Extent: map units per pixel, log-uniform
    std::array<double, 2> center{};          // Jitter
    std::array<double, 2> jitter{};          // Jitter: uniform shift of the centre (+-)
    std::array<double, 2> span{};            // Jitter: bbox width, height
    QString file;                            // File: absolute path
    QList<Bbox> rows;                        // File: its bboxes, replayed cyclically

    QJsonObject toJson() const;              // benchlib's "bbox" object
};

// Options as given on a command line; empty strings are "not given".
struct BboxOptions {
    QString preset;
    QString extent;    // minx,miny,maxx,maxy
    QString res;       // min,max
    QString center;    // x,y
    QString jitter = QStringLiteral("0,0");
    QString span;      // w[,h]
    QString bboxFile;
    QString size = QStringLiteral("512");   // WxH or N
    std::uint64_t seed = 42;
};

struct BboxSpecResult {
    std::optional<BboxSpec> spec;
    QString error;     // set when spec is empty; says what to give instead
};

BboxSpecResult resolveBboxSpec(const BboxOptions& options);

// The built-in presets of ../shared/bench (scenarios.json): "raster" and "roads".
QStringList bboxPresetNames();

// "512" or "640x480"; nullopt when malformed or not positive.
std::optional<std::pair<int, int>> parseImageSize(const QString& text);

// One minx,miny,maxx,maxy per line (blanks or commas), '#' comments; an error
// message instead when the file cannot be read or has no usable line.
std::variant<QList<Bbox>, QString> readBboxFile(const QString& path);

}  // namespace maptune
