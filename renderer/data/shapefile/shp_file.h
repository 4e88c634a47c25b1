#pragma once
// The geometry half of a shapefile: .shp records located through the .shx
// index, decoded straight into a Geometry (the .shp stores x,y pairs and part
// starts exactly as Geometry keeps them). Damage is an error, never a guess.

#include "data/geometry.h"
#include "data/shapefile/chunked_file.h"

#include <memory>

namespace maptune {

class ShpFile {
public:
    // Opens path.shp and its .shx (same base name, either case of extension).
    static Result<std::unique_ptr<ShpFile>> open(const QString& shpPath);
    static Result<std::unique_ptr<ShpFile>> open(const QString& shpPath, const QString& shxPath);

    // The file next to `shpPath` with another extension ("dbf"), in lower
    // case if it exists, else upper case.
    static QString sibling(const QString& shpPath, const char* extension);

    int recordCount() const { return m_records; }
    // The file's shape type (1 point, 3 arc, 5 polygon, 8 multipoint, +10 Z, +20 M).
    int shapeType() const { return m_shapeType; }
    // Whether read() decodes files of this type (not multipatch, 31).
    static bool readsFileType(int shapeType);

    enum class Read { Feature, Skip };
    // Record `index` (0-based) into `out` when its bounds meet `filter`
    // (an invalid filter takes everything). Skip: null shape, no points or
    // outside the filter. An error when the files are damaged. Runs per
    // record: `out` is filled in place, and only an error allocates.
    Result<Read> read(int index, const Rect& filter, Geometry& out);
    void forgetBuffers();

private:
    ShpFile() = default;
    Status recordLocation(int index, int64_t& offset, int64_t& length);

    ChunkedFile m_shp, m_shx;
    QString m_path;
    int m_records = 0;
    int m_shapeType = 0;
};

}  // namespace maptune
