#include "data/shapefile/dbf_file.h"

namespace maptune {

Result<std::unique_ptr<DbfFile>> DbfFile::open(const QString& path)
{
    auto f = std::unique_ptr<DbfFile>(new DbfFile);
    if (Status opened = f->m_file.open(path); !opened) return opened.error();
    auto damaged = [&] { return Error(QStringLiteral("'%1' is not a readable dBASE file").arg(path)); };
    const unsigned char* h = f->m_file.read(0, 32);
    if (!h) return damaged();
    f->m_records = readLe32(h + 4);
    f->m_headerLength = h[8] | h[9] << 8;
    f->m_recordLength = h[10] | h[11] << 8;
    if (f->m_records < 0 || f->m_headerLength < 33 || f->m_recordLength < 1) return damaged();
    const unsigned char* d = f->m_file.read(0, f->m_headerLength);
    if (!d) return damaged();
    int offset = 1;
    for (int at = 32; at + 32 <= f->m_headerLength && d[at] != 0x0D; at += 32) {
        Field field;
        const unsigned char* fd = d + at;
        int nameLength = 0;
        while (nameLength < 11 && fd[nameLength] != 0) ++nameLength;
        field.name = QByteArray(reinterpret_cast<const char*>(fd), nameLength).trimmed();
        field.type = char(fd[11]);
        // Character fields longer than 255 keep the high byte in the "decimals" slot.
        field.width = (field.type == 'N' || field.type == 'F') ? fd[16] : fd[16] + 256 * fd[17];
        field.offset = offset;
        offset += field.width;
        f->m_fields.push_back(field);
    }
    if (offset > f->m_recordLength) return damaged();
    return f;
}

const unsigned char* DbfFile::record(int index)
{
    if (index < 0 || index >= m_records) return nullptr;
    return m_file.read(m_headerLength + int64_t(index) * m_recordLength, m_recordLength);
}

QByteArrayView DbfFile::value(const unsigned char* record, const Field& field)
{
    const char* p = reinterpret_cast<const char*>(record) + field.offset;
    int begin = 0, end = field.width;
    // Text keeps its leading blanks (msDBFReadAttribute trims them for numbers and dates only).
    const bool numeric = field.type == 'N' || field.type == 'F' || field.type == 'D';
    while (begin < end && (p[begin] == '\0' || (numeric && p[begin] == ' '))) ++begin;
    while (end > begin && (p[end - 1] == ' ' || p[end - 1] == '\0')) --end;
    // A NULL number ("****") or date ("00000000") reads as "0", as msDBFReadAttribute returns it.
    if ((field.type == 'N' || field.type == 'F') && begin < end && p[begin] == '*') return QByteArrayView("0");
    if (field.type == 'D' && QByteArrayView(p + begin, end - begin) == QByteArrayView("00000000")) return QByteArrayView("0");
    return QByteArrayView(p + begin, end - begin);
}

}  // namespace maptune
