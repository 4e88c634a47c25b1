#pragma once
// Features of one layer in pixels, as the reader produces them and the
// painters consume them. DrawItemQueue has one producer (the thread reading
// the layer) and lets other threads draw the items already read while the
// rest are still coming: items never move once pushed.
//
// A queue's blocks of items go back to a small pool of the thread that
// destroys it, their point lists emptied but not freed: the next layer that
// thread reads fills them again without two allocations per feature.

#include "data/geometry.h"
#include "mapfile/label_def.h"
#include "mapfile/style_def.h"

#include <QList>
#include <QPolygonF>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace maptune {

struct DrawItem {
    int cls = -1;
    Geometry::Type type = Geometry::Type::None;
    QList<QPolygonF> parts;
    QStringList values;
    QString text;                // the feature's own TEXT (inline features)
    // STYLEITEM "AUTO": the feature's own styles, drawn instead of its class's.
    std::shared_ptr<const QList<StyleDef>> ownStyles;
    // ... and its own labels (its LABEL part; none without one), its text literal.
    std::shared_ptr<const QList<LabelDef>> ownLabels;
    double top = 0, bottom = 0;  // pixel rows the parts span
};

class DrawItemQueue {
public:
    DrawItemQueue();
    ~DrawItemQueue();

    // Producer: the next item to fill, possibly one used before (its parts
    // then hold polygons to reuse, everything else is reset); null when the
    // queue is full (16 million items). publish() makes it readable.
    DrawItem* next();
    void publish();
    // next(), `item` moved in, publish(): false when full.
    bool push(DrawItem&& item);
    // Producer: no more items; wakes every waiting consumer.
    void close();

    // Items published so far; item i < size() may be read from any thread.
    qsizetype size() const { return m_size.load(std::memory_order_acquire); }
    const DrawItem& operator[](qsizetype i) const { return m_blocks[i / BlockSize][i % BlockSize]; }
    // Consumer: blocks until item i is published (true) or the queue is closed without it (false).
    bool waitFor(qsizetype i) const;
    // Consumer: blocks until the producer closes the queue, without being
    // woken for the items published meanwhile.
    void waitClosed() const;

private:
    static constexpr qsizetype BlockSize = 1024, MaxBlocks = 16384;
    // A fixed table of blocks: growing never moves published items.
    std::unique_ptr<std::unique_ptr<DrawItem[]>[]> m_blocks;
    std::atomic<qsizetype> m_size{0};
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_published;
    mutable std::condition_variable m_closedCv;
    bool m_closed = false;  // guarded by m_mutex
};

}  // namespace maptune
