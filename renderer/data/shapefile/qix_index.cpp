#include "data/shapefile/qix_index.h"

#include <QFile>

#include <bit>
#include <cstring>

namespace maptune {

namespace {

constexpr int kHeader = 16;
constexpr int kMaxDepth = 64;  // shptree writes at most ~20 levels

struct Walker {
    const unsigned char* data;
    qsizetype size;
    bool swap;
    const Rect& box;
    std::vector<uint64_t>& bits;
    int shapeCount;

    template <typename T>
    bool take(qsizetype& at, T& out) const
    {
        if (at < 0 || at > size - qsizetype(sizeof(T))) return false;
        std::memcpy(&out, data + at, sizeof(T));
        if (swap) {
            if constexpr (sizeof(T) == 4) out = std::bit_cast<T>(__builtin_bswap32(std::bit_cast<uint32_t>(out)));
            else out = std::bit_cast<T>(__builtin_bswap64(std::bit_cast<uint64_t>(out)));
        }
        at += qsizetype(sizeof(T));
        return true;
    }

    // Reads the node at `at` and its subtree, leaving `at` after it.
    bool node(qsizetype& at, int depth) const
    {
        int32_t skip = 0, shapes = 0, children = 0;
        double minx, miny, maxx, maxy;
        if (depth > kMaxDepth || !take(at, skip) || !take(at, minx) || !take(at, miny) || !take(at, maxx)
            || !take(at, maxy) || !take(at, shapes) || skip < 0 || shapes < 0)
            return false;
        const bool meets = minx <= box.maxx && maxx >= box.minx && miny <= box.maxy && maxy >= box.miny;
        if (!meets) {
            // `skip` counts the bytes of the children; the ids and the child count come first.
            at += 4 * qsizetype(shapes) + 4 + qsizetype(skip);
            return at <= size;
        }
        for (int32_t i = 0; i < shapes; ++i) {
            int32_t id = 0;
            if (!take(at, id)) return false;
            if (id >= 0 && id < shapeCount) bits[size_t(id) >> 6] |= uint64_t(1) << (id & 63);
        }
        if (!take(at, children) || children < 0 || children > 4) return false;
        for (int32_t i = 0; i < children; ++i)
            if (!node(at, depth + 1)) return false;
        return true;
    }
};

}  // namespace

std::optional<QixIndex> QixIndex::load(const QString& qixPath)
{
    QFile f(qixPath);
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    return fromBytes(f.readAll());
}

std::optional<QixIndex> QixIndex::fromBytes(QByteArray bytes)
{
    if (bytes.size() < kHeader || !bytes.startsWith("SQT")) return std::nullopt;
    const char order = bytes[3];  // 0 native, 1 LSB first, 2 MSB first
    const bool bigHost = std::endian::native == std::endian::big;
    const bool swap = (order == 1 && bigHost) || (order == 2 && !bigHost);
    if (order < 0 || order > 2 || bytes[4] != 1) return std::nullopt;
    return QixIndex(std::move(bytes), swap);
}

bool QixIndex::search(const Rect& box, int shapeCount, std::vector<int>& ids) const
{
    ids.clear();
    if (shapeCount <= 0) return true;
    std::vector<uint64_t> bits((size_t(shapeCount) + 63) / 64, 0);
    const Walker w{reinterpret_cast<const unsigned char*>(m_bytes.constData()), m_bytes.size(), m_swap, box, bits,
                   shapeCount};
    qsizetype at = kHeader;
    if (!w.node(at, 0)) return false;
    for (size_t word = 0; word < bits.size(); ++word)
        for (uint64_t b = bits[word]; b; b &= b - 1) ids.push_back(int(word * 64 + size_t(std::countr_zero(b))));
    return true;
}

}  // namespace maptune
