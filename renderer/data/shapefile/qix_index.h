#pragma once
// MapServer's quadtree spatial index for shapefiles (.qix, written by shptree
// and by GDAL): nodes with a bounding box, the shapes that fit in it and up
// to four children. Only the current "SQT" format; an older or damaged file
// is ignored (the records are then filtered by their own bounds).

#include "mapfile/map_def.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace maptune {

class QixIndex {
public:
    // Null when the file is absent, in the old format or has no valid header.
    static std::optional<QixIndex> load(const QString& qixPath);
    static std::optional<QixIndex> fromBytes(QByteArray bytes);

    // Ids (< shapeCount) of the shapes in nodes that meet `box`, ascending and
    // unique, so records are read in file order. False if the tree is damaged.
    bool search(const Rect& box, int shapeCount, std::vector<int>& ids) const;

private:
    explicit QixIndex(QByteArray bytes, bool swap) : m_bytes(std::move(bytes)), m_swap(swap) {}
    QByteArray m_bytes;
    bool m_swap = false;
};

}  // namespace maptune
