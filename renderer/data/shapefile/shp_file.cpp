#include "data/shapefile/shp_file.h"

#include <QFileInfo>

#include <bit>
#include <cstring>

namespace maptune {

namespace {

constexpr int64_t kHeader = 100;

bool overlaps(const Rect& filter, double minx, double miny, double maxx, double maxy)
{
    return !filter.isValid()
        || (minx <= filter.maxx && maxx >= filter.minx && miny <= filter.maxy && maxy >= filter.miny);
}

Geometry::Type geometryType(int shapeType)
{
    if (shapeType <= 0 || shapeType > 28) return Geometry::Type::None;  // null, multipatch, junk
    switch (shapeType % 10) {
    case 1:
    case 8: return Geometry::Type::Point;
    case 3: return Geometry::Type::Line;
    case 5: return Geometry::Type::Polygon;
    default: return Geometry::Type::None;
    }
}

void copyPoints(const unsigned char* p, int count, Geometry& out)
{
    out.xy.resize(2 * size_t(count));
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(out.xy.data(), p, 16 * size_t(count));
    } else {
        for (size_t i = 0; i < 2 * size_t(count); ++i) out.xy[i] = readLeDouble(p + 8 * i);
    }
}

}  // namespace

bool ShpFile::readsFileType(int shapeType)
{
    return shapeType == 0 || geometryType(shapeType) != Geometry::Type::None;
}

QString ShpFile::sibling(const QString& shpPath, const char* extension)
{
    const QString base = shpPath.left(shpPath.size() - 3);
    const QString lower = base + QLatin1String(extension);
    return QFileInfo::exists(lower) ? lower : base + QString::fromLatin1(extension).toUpper();
}

Result<std::unique_ptr<ShpFile>> ShpFile::open(const QString& shpPath)
{
    return open(shpPath, sibling(shpPath, "shx"));
}

Result<std::unique_ptr<ShpFile>> ShpFile::open(const QString& shpPath, const QString& shxPath)
{
    auto f = std::unique_ptr<ShpFile>(new ShpFile);
    f->m_path = shpPath;
    if (Status opened = f->m_shp.open(shpPath); !opened) return opened.error();
    if (Status opened = f->m_shx.open(shxPath); !opened) return opened.error();
    const unsigned char* shp = f->m_shp.read(0, kHeader);
    const unsigned char* shx = f->m_shx.read(0, kHeader);
    if (!shp || !shx || readBe32(shp) != 9994 || readBe32(shx) != 9994)
        return Error(QStringLiteral("'%1' is not a shapefile (bad .shp or .shx header)").arg(shpPath));
    // The .shx header gives its length in 16-bit words; a shorter file was cut.
    const int64_t shxLength = int64_t(uint32_t(readBe32(shx + 24))) * 2;
    if (shxLength < kHeader || shxLength > f->m_shx.size())
        return Error(QStringLiteral("'%1': the .shx index is damaged or cut short").arg(shpPath));
    f->m_records = int((shxLength - kHeader) / 8);
    f->m_shapeType = readLe32(shp + 32);
    return f;
}

void ShpFile::forgetBuffers()
{
    m_shp.forget();
    m_shx.forget();
}

Status ShpFile::recordLocation(int index, int64_t& offset, int64_t& length)
{
    const unsigned char* e = m_shx.read(kHeader + 8 * int64_t(index), 8);
    if (e) {
        offset = int64_t(uint32_t(readBe32(e))) * 2;
        length = int64_t(uint32_t(readBe32(e + 4))) * 2;
        const unsigned char* h = offset >= kHeader ? m_shp.read(offset, 8) : nullptr;
        // The record header repeats the number and length: a scribbled index
        // points somewhere they do not match.
        if (h && readBe32(h) == index + 1 && int64_t(uint32_t(readBe32(h + 4))) * 2 == length) return {};
    }
    return Error(QStringLiteral("'%1': record %2 is damaged (.shp/.shx do not agree or the file is cut short)")
                     .arg(m_path).arg(index));
}

Result<ShpFile::Read> ShpFile::read(int index, const Rect& filter, Geometry& out)
{
    int64_t offset = 0, length = 0;
    if (Status located = recordLocation(index, offset, length); !located) return located.error();
    if (length < 4) return Read::Skip;
    const unsigned char* p = m_shp.read(offset + 8, length);
    auto damaged = [&] { return Error(QStringLiteral("'%1': record %2 is damaged").arg(m_path).arg(index)); };
    if (!p) return damaged();
    const int type = readLe32(p);
    if (type == 0) return Read::Skip;
    const Geometry::Type gtype = geometryType(type);
    if (gtype == Geometry::Type::None) return damaged();
    out.clear();
    out.type = gtype;
    if (type % 10 == 1) {  // point
        if (length < 20) return damaged();
        const double x = readLeDouble(p + 4), y = readLeDouble(p + 12);
        if (!overlaps(filter, x, y, x, y)) return Read::Skip;
        out.xy = {x, y};
        out.partStart = {0};
        return Read::Feature;
    }
    if (length < 40) return damaged();
    if (!overlaps(filter, readLeDouble(p + 4), readLeDouble(p + 12), readLeDouble(p + 20), readLeDouble(p + 28)))
        return Read::Skip;
    if (type % 10 == 8) {  // multipoint: one part per point, as OGR's MultiPoint
        const int n = readLe32(p + 36);
        if (n < 0 || 40 + 16 * int64_t(n) > length) return damaged();
        if (n == 0) return Read::Skip;
        copyPoints(p + 40, n, out);
        out.partStart.resize(size_t(n));
        for (int i = 0; i < n; ++i) out.partStart[size_t(i)] = i;
        return Read::Feature;
    }
    if (length < 44) return damaged();
    const int parts = readLe32(p + 36), points = readLe32(p + 40);
    if (parts < 0 || points < 0 || 44 + 4 * int64_t(parts) + 16 * int64_t(points) > length) return damaged();
    if (parts == 0 || points == 0) return Read::Skip;
    out.partStart.resize(size_t(parts));
    for (int i = 0; i < parts; ++i) {
        const int start = readLe32(p + 44 + 4 * i);
        if (start < 0 || start >= points || (i > 0 && start < out.partStart[size_t(i) - 1])) return damaged();
        out.partStart[size_t(i)] = start;
    }
    if (out.partStart[0] != 0) return damaged();
    copyPoints(p + 44 + 4 * parts, points, out);
    return Read::Feature;
}

}  // namespace maptune
