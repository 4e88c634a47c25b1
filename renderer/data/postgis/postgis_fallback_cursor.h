#pragma once
// A statement guarded by PostgisStatement::tableVersionGuard returns no rows
// both when its box is empty and when the table it was keyed to moved to a
// new file (VACUUM FULL, CLUSTER, TRUNCATE) or grew inheritance children.
// This cursor tells the two apart: when the guarded cursor ends with no rows
// and no error, the layer's plain statement runs instead, and if that one
// has rows the guard was stale (`stale` is called, once).

#include "data/feature_source.h"

#include <functional>
#include <memory>

namespace maptune {

class PostgisFallbackCursor : public FeatureCursor {
public:
    using Open = std::function<Result<std::unique_ptr<FeatureCursor>>()>;
    // `rowsRead` says how many rows the guarded statement returned so far.
    PostgisFallbackCursor(std::unique_ptr<FeatureCursor> guarded, std::function<qint64()> rowsRead, Open plain,
                          std::function<void()> stale);

    const QStringList& fields() const override { return m_current->fields(); }
    QString error() const override { return m_error.isEmpty() ? m_current->error() : m_error; }
    bool next(Feature& f) override;
    bool keepsLocalServerBusy() const override { return m_current->keepsLocalServerBusy(); }

private:
    std::unique_ptr<FeatureCursor> m_current;
    std::function<qint64()> m_rowsRead;
    Open m_plain;
    std::function<void()> m_stale;
    bool m_fellBack = false;
    QString m_error;
};

}  // namespace maptune
