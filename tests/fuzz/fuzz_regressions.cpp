// fuzz_regressions: replays every kept input (the seed corpora and the inputs
// that once crashed a target) through the fuzz targets' entry functions. Plain
// executable, no libFuzzer: it runs in every build, and under ASan/UBSan in
// the sanitizer build. A crash aborts the process and fails the test.
//
//   fuzz_regressions [FUZZ_DIR]   (default: tests/fuzz of the source tree)

#include "fuzz_targets.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

struct Target {
    const char* name;  // folder under corpus/ and regressions/
    int (*run)(const uint8_t*, size_t);
};

const Target kTargets[] = {
    {"mapfile", maptune::fuzz::mapfile}, {"expr", maptune::fuzz::expr}, {"wms_request", maptune::fuzz::wmsRequest},
    {"lut", maptune::fuzz::lut},         {"wkb", maptune::fuzz::wkb},         {"qix", maptune::fuzz::qix},
    {"shp", maptune::fuzz::shp},         {"query_template", maptune::fuzz::queryTemplate},
    {"geom_transform", maptune::fuzz::geomTransform}, {"text", maptune::fuzz::text},
    {"ogr_style", maptune::fuzz::ogrStyle},
};

std::vector<std::filesystem::path> filesIn(const std::filesystem::path& dir)
{
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());  // the same order on every run
    return files;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::filesystem::path root = argc > 1 ? argv[1] : MAPTUNE_FUZZ_DIR;
    int total = 0;
    for (const Target& target : kTargets) {
        int replayed = 0;
        for (const char* kind : {"corpus", "regressions"}) {
            for (const auto& file : filesIn(root / kind / target.name)) {
                std::ifstream in(file, std::ios::binary);
                const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
                std::fprintf(stderr, "%s\n", file.c_str());  // the last name printed is the culprit of a crash
                target.run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
                ++replayed;
            }
        }
        std::printf("fuzz_regressions: %s: %d inputs replayed\n", target.name, replayed);
        total += replayed;
    }
    if (total == 0) {
        std::fprintf(stderr, "fuzz_regressions: no inputs under %s\n", root.c_str());
        return 1;
    }
    std::printf("fuzz_regressions: %d inputs, no crash\n", total);
    return 0;
}
