#pragma once
// A read-only file read through positioned reads into a reusable buffer.
// Shapefile records are visited in file order, so one read usually serves
// many records. Not mmap: a file truncated while it is mapped kills the
// process with SIGBUS, and a server must survive data replaced under it.

#include "core/result.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace maptune {

class ChunkedFile {
public:
    ChunkedFile() = default;
    ~ChunkedFile();
    ChunkedFile(const ChunkedFile&) = delete;
    ChunkedFile& operator=(const ChunkedFile&) = delete;

    Status open(const QString& path);
    bool isOpen() const { return m_fd >= 0; }
    // Size when opened (the file may shrink later: read() then fails).
    int64_t size() const { return m_size; }
    // `length` bytes at `offset`, valid until the next call; null when the
    // file ends before them or the read fails.
    const unsigned char* read(int64_t offset, int64_t length);
    // Drops what was read, so the next read sees the file as it is now (a
    // new query must not serve records from a file since cut short).
    void forget();

private:
    int m_fd = -1;
    int64_t m_size = 0;
    std::vector<unsigned char> m_buffer;
    int64_t m_bufferStart = 0;
    int64_t m_bufferLength = 0;
    int64_t m_chunk = 0;
};

// Little- and big-endian fields of the shapefile formats.
inline int32_t readLe32(const unsigned char* p)
{
    return int32_t(uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24);
}
inline int32_t readBe32(const unsigned char* p)
{
    return int32_t(uint32_t(p[3]) | uint32_t(p[2]) << 8 | uint32_t(p[1]) << 16 | uint32_t(p[0]) << 24);
}
double readLeDouble(const unsigned char* p);

}  // namespace maptune
