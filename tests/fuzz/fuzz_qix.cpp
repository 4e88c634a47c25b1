// A .qix spatial index as found next to a shapefile: load, then search a few
// boxes. The ids returned must be in range, ascending and unique.

#include "fuzz_targets.h"

#include "data/shapefile/qix_index.h"

#include <QByteArray>

#include <algorithm>

namespace maptune::fuzz {

int qix(const uint8_t* data, size_t size)
{
    auto index = QixIndex::fromBytes(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    if (!index) return 0;
    for (const Rect& box : {Rect{-1e300, -1e300, 1e300, 1e300}, Rect{0, 0, 1, 1}, Rect{139.7, 35.6, 139.8, 35.7}}) {
        std::vector<int> ids;
        index->search(box, 1000, ids);
        for (int id : ids) check(id >= 0 && id < 1000, "ids are in range");
        check(std::adjacent_find(ids.begin(), ids.end(), [](int a, int b) { return a >= b; }) == ids.end(),
              "ids ascend without repeats");
    }
    return 0;
}

}  // namespace maptune::fuzz
