// Encoding cost and size of 512x512 canvases: our PNG / PNG8 / JPEG against
// MapServer 8's PNG configuration (libpng, zlib default level 6, filter NONE:
// src/mapimageio.c saveAsPNG) and Qt's PNG writer.
//
//   bench_encode [--benchmark_filter=...]
// Counters: bytes = output size; vs_mapserver = bytes / MapServer-configured bytes.

#include "encode/image_encoder.h"
#include "encode/output_format.h"
#include "mapfile/map_def.h"
#include "sample_images.h"

#include <QBuffer>
#include <QGuiApplication>


#include <benchmark/benchmark.h>
#include <png.h>

#include <map>
#include <vector>

using namespace maptune;

namespace {

enum Sample { Photo, MapAntialiased, MapFlat, Canvas };

// Canvas: a real rendering, read from the PNG that MAPTUNE_BENCH_CANVAS
// names (for example a GetMap answer of the shared harness's roads_shp).
const QImage& sample(int which) {
    static const std::map<int, QImage> images = {
        {Photo, samples::photoLike(512, 512)},
        {MapAntialiased, samples::mapLike(512, 512, true)},
        {MapFlat, samples::mapLike(512, 512, false)},
        {Canvas, QImage(qEnvironmentVariable("MAPTUNE_BENCH_CANVAS"))
                     .convertToFormat(QImage::Format_ARGB32_Premultiplied)},
    };
    return images.at(which);
}

const char* sampleName(int which) {
    return which == Photo ? "photo" : which == MapAntialiased ? "map_aa" : which == MapFlat ? "map_flat" : "canvas";
}

void appendToBuffer(png_structp png, png_bytep data, png_size_t length) {
    static_cast<std::vector<uint8_t>*>(png_get_io_ptr(png))->insert(
        static_cast<std::vector<uint8_t>*>(png_get_io_ptr(png))->end(), data, data + length);
}
void noFlush(png_structp) {}

// MapServer 8's RGB PNG path: compression -1 (zlib's 6), PNG_FILTER_NONE, RGB rows.
size_t mapserverPng(const QImage& img) {
    std::vector<uint8_t> out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    png_set_compression_level(png, -1);
    png_set_filter(png, 0, PNG_FILTER_NONE);
    png_set_write_fn(png, &out, appendToBuffer, noFlush);
    png_set_IHDR(png, info, img.width(), img.height(), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    std::vector<uint8_t> row(img.width() * 3);
    for (int y = 0; y < img.height(); ++y) {
        const auto* in = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            row[x * 3] = qRed(in[x]);
            row[x * 3 + 1] = qGreen(in[x]);
            row[x * 3 + 2] = qBlue(in[x]);
        }
        png_write_row(png, row.data());
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return out.size();
}

size_t mapserverBytes(int which) {
    static std::map<int, size_t> cache;
    auto it = cache.find(which);
    if (it == cache.end()) it = cache.emplace(which, mapserverPng(sample(which))).first;
    return it->second;
}

bool skipped(benchmark::State& state, int which) {
    if (!sample(which).isNull()) return false;
    state.SkipWithError("set MAPTUNE_BENCH_CANVAS to a PNG file");
    return true;
}

void report(benchmark::State& state, int which, size_t bytes) {
    state.SetLabel(sampleName(which));
    state.counters["bytes"] = static_cast<double>(bytes);
    state.counters["vs_mapserver"] = static_cast<double>(bytes) / mapserverBytes(which);
}

void BM_MapServerPng(benchmark::State& state) {
    const int which = static_cast<int>(state.range(0));
    if (skipped(state, which)) return;
    size_t bytes = 0;
    for (auto _ : state) benchmark::DoNotOptimize(bytes = mapserverPng(sample(which)));
    report(state, which, bytes);
}

void BM_QImagePng(benchmark::State& state) {
    const int which = static_cast<int>(state.range(0));
    if (skipped(state, which)) return;
    const QImage rgb = sample(which).convertToFormat(QImage::Format_RGB32);
    size_t bytes = 0;
    for (auto _ : state) {
        QByteArray data;
        QBuffer buffer(&data);
        buffer.open(QIODevice::WriteOnly);
        rgb.save(&buffer, "PNG");
        bytes = static_cast<size_t>(data.size());
    }
    report(state, which, bytes);
}

void runOurs(benchmark::State& state, const QString& format, const QString& compression = {}) {
    const int which = static_cast<int>(state.range(0));
    if (skipped(state, which)) return;
    state.SetLabel(sampleName(which));
    MapDef map;
    if (!compression.isEmpty()) {
        OutputFormatDef def;
        def.name = QStringLiteral("custom");
        def.driver = format == QLatin1String("png8") ? QStringLiteral("AGG/PNG8") : QStringLiteral("AGG/PNG");
        def.formatOptions.items.append({QStringLiteral("COMPRESSION"), compression});
        map.outputFormats.append(def);
    }
    const ImageFormat f = *findImageFormat(map, compression.isEmpty() ? format : QStringLiteral("custom"));
    size_t bytes = 0;
    for (auto _ : state) bytes = static_cast<size_t>(encodeImage(sample(which), f).valueOr(QByteArray()).size());
    report(state, which, bytes);
}

void BM_Png(benchmark::State& state) { runOurs(state, QStringLiteral("png")); }


// FORMATOPTION "COMPRESSION=n" (n = second argument): libdeflate level n.
void BM_PngCompression(benchmark::State& state) {
    runOurs(state, QStringLiteral("png"), QString::number(state.range(1)));
}
void BM_Png8(benchmark::State& state) { runOurs(state, QStringLiteral("png8")); }
void BM_Png8Compression(benchmark::State& state) {
    runOurs(state, QStringLiteral("png8"), QString::number(state.range(1)));
}
void BM_Jpeg(benchmark::State& state) { runOurs(state, QStringLiteral("jpeg")); }

}  // namespace

#define SAMPLES ->Arg(Photo)->Arg(MapAntialiased)->Arg(MapFlat)->Arg(Canvas)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_MapServerPng) SAMPLES;
BENCHMARK(BM_QImagePng) SAMPLES;
BENCHMARK(BM_Png) SAMPLES;
BENCHMARK(BM_PngCompression)->ArgsProduct({{Photo, MapAntialiased, MapFlat, Canvas}, {1, 4, 5, 6, 9}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Png8) SAMPLES;
BENCHMARK(BM_Png8Compression)->ArgsProduct({{Photo, MapAntialiased, MapFlat}, {1, 6}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Jpeg) SAMPLES;

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
