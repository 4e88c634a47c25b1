#include "data/shapefile/chunked_file.h"

#include <QFile>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace maptune {

namespace {
// Reads grow while records are visited in order and shrink after a jump, so a
// full scan makes few system calls and a sparse index hit copies little.
constexpr int64_t kMinChunk = 16 * 1024;
constexpr int64_t kMaxChunk = 1024 * 1024;
}

ChunkedFile::~ChunkedFile()
{
    if (m_fd >= 0) ::close(m_fd);
}

Status ChunkedFile::open(const QString& path)
{
    m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (m_fd < 0 || ::fstat(m_fd, &st) != 0)
        return Error(QStringLiteral("cannot open '%1': %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    m_size = int64_t(st.st_size);
    return {};
}

const unsigned char* ChunkedFile::read(int64_t offset, int64_t length)
{
    if (offset < 0 || length < 0 || offset > m_size - length) return nullptr;
    if (offset >= m_bufferStart && offset + length <= m_bufferStart + m_bufferLength)
        return m_buffer.data() + (offset - m_bufferStart);
    const int64_t end = m_bufferStart + m_bufferLength;
    const bool onward = m_bufferLength > 0 && offset >= end && offset < end + m_chunk;
    m_chunk = onward ? std::min(2 * m_chunk, kMaxChunk) : kMinChunk;
    const int64_t want = std::min(std::max(length, m_chunk), m_size - offset);
    if (int64_t(m_buffer.size()) < want) m_buffer.resize(size_t(want));
    int64_t got = 0;
    while (got < want) {
        const ssize_t n = ::pread(m_fd, m_buffer.data() + got, size_t(want - got), off_t(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += n;
    }
    m_bufferStart = offset;
    m_bufferLength = got;
    return got >= length ? m_buffer.data() : nullptr;
}

void ChunkedFile::forget()
{
    m_bufferStart = 0;
    m_bufferLength = 0;
}

double readLeDouble(const unsigned char* p)
{
    uint64_t bits;
    std::memcpy(&bits, p, 8);
    if constexpr (std::endian::native == std::endian::big) bits = __builtin_bswap64(bits);
    return std::bit_cast<double>(bits);
}

}  // namespace maptune
