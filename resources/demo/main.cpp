// maptune-demo-data OUTDIR: writes the demo data set (see demo_scene.h) into
// OUTDIR. Deterministic: the same seed gives the same bytes on every run.

#include "demo_mapfile.h"
#include "demo_scene.h"
#include "ortho_painter.h"
#include "raster_files.h"
#include "vector_files.h"

#include <gdal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>

namespace fs = std::filesystem;
using namespace maptune::demo;

namespace {

constexpr std::uint64_t kDefaultSeed = 20240601;

const char* const kOutputs[] = {
    "ortho.tif", "ortho.jp2", "ortho.jp2.aux.xml", "ortho.tif.aux.xml", "demo.gpkg", "demo.gpkg-journal",
    "roads.shp", "roads.shx", "roads.dbf", "roads.prj", "roads.cpg", "roads.qix",
    "buildings.shp", "buildings.shx", "buildings.dbf", "buildings.prj", "buildings.cpg", "buildings.qix",
    "demo.map", "ortho.curves", "fonts.txt",
};

int usage(const char* message)
{
    if (message)
        std::fprintf(stderr, "maptune-demo-data: %s\n", message);
    std::fprintf(stderr,
                 "usage: maptune-demo-data OUTDIR [--seed N] [--postgis CONNINFO]\n"
                 "Writes the MapTune demo data (orthophoto, roads, buildings, demo.map) into OUTDIR.\n"
                 "--postgis: demo.map reads the roads from the PostGIS table \"roads\" (geom, ogc_fid).\n");
    return 2;
}

class Stopwatch
{
public:
    void step(const char* what)
    {
        const auto now = std::chrono::steady_clock::now();
        std::printf("  %-34s %6.2f s\n", what, std::chrono::duration<double>(now - m_last).count());
        std::fflush(stdout);
        m_last = now;
    }
    double total() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }

private:
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point m_last = m_start;
};

std::optional<std::string> writeText(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out)
        return "cannot write " + path.string();
    return std::nullopt;
}

// Drivers refuse to overwrite some files and GeoPackage would append, so start clean.
std::optional<std::string> removeOldOutputs(const fs::path& dir)
{
    for (const char* name : kOutputs) {
        std::error_code ec;
        fs::remove(dir / name, ec);
        if (ec)
            return "cannot remove old " + (dir / name).string() + ": " + ec.message();
    }
    return std::nullopt;
}

std::optional<std::string> generate(const fs::path& dir, std::uint64_t seed, const std::string& postgis)
{
    Stopwatch clock;
    if (auto error = removeOldOutputs(dir))
        return error;
    const DemoScene scene = buildDemoScene(seed);
    clock.step("scene");
    const auto rgb = paintOrtho(scene);
    clock.step("paint orthophoto");
    if (auto error = writeOrthoGeoTiff(scene, rgb, dir / "ortho.tif"))
        return error;
    clock.step("ortho.tif (+ overviews)");
    if (auto error = writeJpeg2000Copy(dir / "ortho.tif", dir / "ortho.jp2"))
        return error;
    clock.step("ortho.jp2");
    if (auto error = writeVectorFiles(scene, dir))
        return error;
    clock.step("roads, buildings, demo.gpkg");
    for (const auto& [name, text] : {std::pair{"demo.map", demoMapfileText(scene, postgis)},
                                     std::pair{"ortho.curves", gimpCurvesText()},
                                     std::pair{"fonts.txt", fontsetText()}})
        if (auto error = writeText(dir / name, text))
            return error;
    std::printf("maptune-demo-data: %zu roads, %zu buildings, %d x %d px ortho in %.2f s -> %s\n",
                scene.roads.size(), scene.buildings.size(), scene.pixels, scene.pixels, clock.total(),
                (dir / "demo.map").c_str());
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv)
{
    std::optional<fs::path> dir;
    std::uint64_t seed = kDefaultSeed;
    std::string postgis;
    for (int k = 1; k < argc; ++k) {
        const std::string arg = argv[k];
        if (arg == "-h" || arg == "--help") {
            usage(nullptr);
            return 0;
        }
        if (arg == "--seed" && k + 1 < argc) {
            char* end = nullptr;
            seed = std::strtoull(argv[++k], &end, 10);
            if (!end || *end)
                return usage("--seed needs a non-negative integer");
        } else if (arg == "--postgis" && k + 1 < argc) {
            postgis = argv[++k];
            if (postgis.find('"') != std::string::npos)
                return usage("--postgis: the connection string cannot contain double quotes");
        } else if (!arg.empty() && arg[0] == '-') {
            return usage(("unknown option " + arg).c_str());
        } else if (dir) {
            return usage("only one OUTDIR, please");
        } else {
            dir = arg;
        }
    }
    if (!dir)
        return usage("missing OUTDIR");

    std::error_code ec;
    fs::create_directories(*dir, ec);
    if (ec) {
        std::fprintf(stderr, "maptune-demo-data: cannot create %s: %s\n", dir->c_str(), ec.message().c_str());
        return 1;
    }
    GDALAllRegister();
    if (auto error = generate(*dir, seed, postgis)) {
        std::fprintf(stderr, "maptune-demo-data: %s\n", error->c_str());
        return 1;
    }
    return 0;
}
