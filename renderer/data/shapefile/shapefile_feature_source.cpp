#include "data/shapefile/shapefile_feature_source.h"

#include "data/open_file_cache.h"
#include "data/repeated_values.h"
#include "data/shapefile/dbf_file.h"
#include "data/shapefile/qix_index.h"
#include "data/shapefile/shp_file.h"

#include <cpl_string.h>

#include <QFileInfo>

namespace maptune {

struct ShapefileFiles {
    std::unique_ptr<ShpFile> shp;
    std::unique_ptr<DbfFile> dbf;  // null without a .dbf
    std::optional<QixIndex> qix;
};

namespace {

// Descriptors and read buffers are per thread.
std::shared_ptr<ShapefileFiles> openFiles(const QString& shpPath)
{
    thread_local OpenFileCache<std::shared_ptr<ShapefileFiles>> cache;
    if (const auto files = cache.find(shpPath)) return *files;
    auto files = std::make_shared<ShapefileFiles>();
    // Null on failure without the reason: wrap() then reads the file through OGR.
    auto shp = ShpFile::open(shpPath);
    if (!shp) return nullptr;
    files->shp = std::move(*shp);
    const QString dbf = ShpFile::sibling(shpPath, "dbf");
    if (QFileInfo::exists(dbf)) {
        auto opened = DbfFile::open(dbf);
        if (!opened) return nullptr;
        files->dbf = std::move(*opened);
    }
    files->qix = QixIndex::load(ShpFile::sibling(shpPath, "qix"));
    cache.insert(shpPath, files);
    return files;
}

QString decode(QByteArrayView bytes, const QByteArray& encoding)
{
    if (encoding.isEmpty()) return QString::fromUtf8(bytes);
    if (encoding == "ISO-8859-1") return QString::fromLatin1(bytes);
    bool ascii = true;
    for (char c : bytes) ascii = ascii && uchar(c) < 0x80;
    if (ascii) return QString::fromLatin1(bytes);
    char* utf8 = CPLRecode(bytes.toByteArray().constData(), encoding.constData(), CPL_ENC_UTF8);
    QString s = QString::fromUtf8(utf8);
    CPLFree(utf8);
    return s;
}

class ShapefileCursor : public FeatureCursor {
public:
    ShapefileCursor(std::shared_ptr<ShapefileFiles> files, QStringList names, std::vector<int> fieldIndexes,
                    std::vector<int> ids, bool useIds, QByteArray encoding, const FeatureQuery& q)
        : m_files(std::move(files)), m_names(std::move(names)), m_fieldIndexes(std::move(fieldIndexes)),
          m_ids(std::move(ids)), m_useIds(useIds), m_encoding(std::move(encoding)), m_query(q),
          m_values(int(m_fieldIndexes.size()))
    {
    }
    const QStringList& fields() const override { return m_names; }
    QString error() const override { return m_error; }

    bool next(Feature& f) override
    {
        if (!m_error.isEmpty() || (m_query.maxFeatures >= 0 && m_count >= m_query.maxFeatures)) return false;
        ShpFile& shp = *m_files->shp;
        DbfFile* dbf = m_files->dbf.get();
        for (;;) {
            int index;
            if (m_useIds) {
                if (m_pos >= m_ids.size()) return false;
                index = m_ids[m_pos++];
            } else {
                if (m_pos >= size_t(shp.recordCount())) return false;
                index = int(m_pos++);
            }
            if ((m_pos & 255) == 0 && m_query.cancel.isCancelled()) return false;
            // OGR hides records the .dbf marks deleted; so do we.
            const unsigned char* record = dbf ? dbf->record(index) : nullptr;
            if (dbf && !record) {
                m_error = QStringLiteral("reading features failed: the .dbf has no record %1 (cut short?)").arg(index);
                return false;
            }
            if (record && DbfFile::isDeleted(record)) continue;
            const Result<ShpFile::Read> r = shp.read(index, m_query.bbox, f.geometry);
            if (!r) {
                m_error = QStringLiteral("reading features failed: %1").arg(r.message());
                return false;
            }
            if (*r == ShpFile::Read::Skip) continue;
            f.id = index;
            f.values.resize(qsizetype(m_fieldIndexes.size()));
            for (size_t i = 0; i < m_fieldIndexes.size(); ++i) {
                const int fi = m_fieldIndexes[i];
                f.values[qsizetype(i)] =
                    fi >= 0 && record
                        ? m_values.value(int(i), DbfFile::value(record, dbf->fields()[size_t(fi)]),
                                         [this](QByteArrayView raw) { return decode(raw, m_encoding); })
                        : QString();
            }
            ++m_count;
            return true;
        }
    }

private:
    std::shared_ptr<ShapefileFiles> m_files;
    QStringList m_names;
    std::vector<int> m_fieldIndexes;
    std::vector<int> m_ids;
    bool m_useIds;
    QByteArray m_encoding;
    FeatureQuery m_query;
    RepeatedValues m_values;
    size_t m_pos = 0;
    int m_count = 0;
    QString m_error;
};

}  // namespace

ShapefileFeatureSource::~ShapefileFeatureSource() = default;

std::unique_ptr<FeatureSource> ShapefileFeatureSource::wrap(const QString& shpPath,
                                                            std::unique_ptr<OgrFeatureSource> ogr)
{
    auto files = openFiles(shpPath);
    const int dbfFields = files && files->dbf ? int(files->dbf->fields().size()) : 0;
    if (!files || !ShpFile::readsFileType(files->shp->shapeType()) || dbfFields != ogr->fields().size()) return ogr;
    QByteArray encoding = ogr->layerMetadata("SOURCE_ENCODING", "SHAPEFILE").toUpper().toLatin1();
    if (encoding == "UTF-8" || encoding == "UTF8") encoding.clear();
    auto src = std::unique_ptr<ShapefileFeatureSource>(new ShapefileFeatureSource);
    src->m_ogr = std::move(ogr);
    src->m_files = std::move(files);
    src->m_encoding = encoding;
    return src;
}

Result<std::unique_ptr<FeatureCursor>> ShapefileFeatureSource::query(const FeatureQuery& q)
{
    const QStringList all = m_ogr->fields();
    const QStringList names = q.attributes.contains(QStringLiteral("*")) ? all : q.attributes;
    std::vector<int> indexes;
    for (const QString& name : names) {
        int idx = -1;
        for (qsizetype i = 0; i < all.size() && idx < 0; ++i)
            if (all[i].compare(name, Qt::CaseInsensitive) == 0) idx = int(i);
        indexes.push_back(idx);
    }
    m_files->shp->forgetBuffers();
    if (m_files->dbf) m_files->dbf->forgetBuffer();
    std::vector<int> ids;
    const bool useIds = q.bbox.isValid() && m_files->qix
                        && m_files->qix->search(q.bbox, m_files->shp->recordCount(), ids);
    return std::unique_ptr<FeatureCursor>(
        std::make_unique<ShapefileCursor>(m_files, names, std::move(indexes), std::move(ids), useIds, m_encoding, q));
}

}  // namespace maptune
