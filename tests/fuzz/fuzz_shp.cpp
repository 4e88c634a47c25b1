// A shapefile's geometry half: input = 4-byte little-endian length of the
// .shx, the .shx, then the .shp. Both live in memory files (memfd), so nothing
// touches the disk. Every record is read with and without a box; a record is
// a feature, skipped or an error, and a feature's parts fit its points.

#include "fuzz_targets.h"

#include "data/shapefile/shp_file.h"

#include <sys/mman.h>
#include <unistd.h>

namespace maptune::fuzz {

namespace {

struct MemoryFile {
    int fd = -1;
    MemoryFile(const uint8_t* data, size_t size) : fd(memfd_create("fuzz", MFD_CLOEXEC))
    {
        if (fd >= 0 && size > 0 && ::write(fd, data, size) != ssize_t(size)) {
            ::close(fd);
            fd = -1;
        }
    }
    ~MemoryFile()
    {
        if (fd >= 0) ::close(fd);
    }
    QString path() const { return QStringLiteral("/proc/self/fd/%1").arg(fd); }
};

}  // namespace

int shp(const uint8_t* data, size_t size)
{
    if (size < 4) return 0;
    const size_t shxSize = std::min<size_t>(size - 4, data[0] | data[1] << 8 | data[2] << 16 | size_t(data[3]) << 24);
    const MemoryFile shx(data + 4, shxSize), shpFile(data + 4 + shxSize, size - 4 - shxSize);
    if (shx.fd < 0 || shpFile.fd < 0) return 0;
    auto opened = ShpFile::open(shpFile.path(), shx.path());
    if (!opened) {
        check(!opened.message().isEmpty(), "a refused file says why");
        return 0;
    }
    const std::unique_ptr<ShpFile> file = std::move(opened).value();
    Geometry g;
    for (const Rect& box : {Rect{}, Rect{0, 0, 10, 10}}) {
        for (int i = 0; i < std::min(file->recordCount(), 5000); ++i) {
            const Result<ShpFile::Read> r = file->read(i, box, g);
            if (!r || *r != ShpFile::Read::Feature) continue;
            check(!g.partStart.empty() && g.partStart[0] == 0, "the first part starts at 0");
            for (int p = 0; p < g.partCount(); ++p)
                check(g.partStart[size_t(p)] <= g.partEnd(p) && g.partEnd(p) <= g.pointCount(), "parts fit the points");
        }
    }
    return 0;
}

}  // namespace maptune::fuzz
