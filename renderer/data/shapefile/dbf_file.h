#pragma once
// The attribute half of a shapefile: dBASE records read as raw bytes and cut
// into trimmed field values, as MapServer's own reader returns them (numbers
// and dates as written, not reformatted).

#include "data/shapefile/chunked_file.h"

#include <QByteArray>
#include <QByteArrayView>

#include <memory>
#include <vector>

namespace maptune {

class DbfFile {
public:
    struct Field {
        QByteArray name;
        char type = 'C';
        int offset = 0;  // in the record, after the deletion flag
        int width = 0;
    };

    static Result<std::unique_ptr<DbfFile>> open(const QString& path);

    const std::vector<Field>& fields() const { return m_fields; }
    int recordCount() const { return m_records; }
    // Record `index`, deletion flag first; null when the file is cut short.
    const unsigned char* record(int index);
    void forgetBuffer() { m_file.forget(); }
    static bool isDeleted(const unsigned char* record) { return record[0] == '*'; }
    // The field's bytes without surrounding blanks; empty for a numeric
    // field dBASE marks as null (all '*').
    static QByteArrayView value(const unsigned char* record, const Field& field);

private:
    DbfFile() = default;
    ChunkedFile m_file;
    std::vector<Field> m_fields;
    int m_records = 0;
    int m_headerLength = 0;
    int m_recordLength = 0;
};

}  // namespace maptune
