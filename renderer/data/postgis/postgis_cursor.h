#pragma once
// Rows of one streamed PostGIS SELECT (PostgisStatement::select), decoded as
// they arrive. Adds the time the renderer spends waiting for and decoding
// rows, and their count and bytes, to the layer's DbTrace as it pulls them;
// the whileWaiting work done inside a wait is not fetch time.
//
// Every wait for the server is timed (the stream does), but the decoding of
// only one row in kSampleEvery, scaled to all rows: two clock reads per row
// were 2 % of a loaded PostGIS server's CPU, and rows decode alike.

#include "data/feature_source.h"
#include "data/postgis/pg_row_cache.h"
#include "data/postgis/pg_row_stream.h"
#include "data/repeated_values.h"

#include <chrono>
#include <functional>
#include <memory>

namespace maptune {

class PostgisCursor : public FeatureCursor {
public:
    using Clock = std::chrono::steady_clock;

    PostgisCursor(std::unique_ptr<PgRowStream> stream, QStringList fields, bool hasUid, std::shared_ptr<DbTrace> trace,
                  std::function<bool()> whileWaiting);
    ~PostgisCursor() override;

    // The statement selected ctid and xmin last (PostgisSelectSpec::tupleIds):
    // keep a copy of every row read and, once the last one is read, add them
    // to `scope` as rows of table file `file`.
    void keepRowsIn(std::shared_ptr<PgRowCacheScope> scope, quint32 file);

    // The server runs on this machine (FeatureSource::servedOnThisMachine).
    void setLocalServer(bool local) { m_localServer = local; }

    const QStringList& fields() const override { return m_fields; }
    QString error() const override { return m_stream->error().isEmpty() ? m_error : m_stream->error(); }
    bool next(Feature& f) override;
    bool keepsLocalServerBusy() const override { return m_localServer; }

private:
    bool advance(Feature& f);
    bool keep(const PGresult* r, int column, const Feature* f);

    std::unique_ptr<PgRowStream> m_stream;
    QStringList m_fields;
    RepeatedValues m_values{int(m_fields.size())};
    bool m_hasUid;
    std::shared_ptr<DbTrace> m_trace;
    std::function<bool()> m_whileWaiting;
    static constexpr quint64 kSampleEvery = 8;
    quint64 m_calls = 0, m_samples = 0;
    Clock::duration m_decoded{0};  // in the sampled calls, waits excluded
    Clock::duration m_worked{0};   // whileWaiting work inside the waits
    QString m_error;
    bool m_localServer = false;
    std::shared_ptr<PgRowCacheScope> m_keepIn;
    quint32 m_keepFile = 0;
    PgRowBatch m_kept;
    std::vector<QByteArrayView> m_rawValues;
};

// `uniqueKey`'s text as the feature id; a key that is not an integer numbers the row instead.
qint64 postgisUniqueId(const char* text, int length, qint64 row);

}  // namespace maptune
