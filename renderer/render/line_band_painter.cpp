#include "render/line_band_painter.h"

#include "render/line_offset.h"

#include <algorithm>
#include <cmath>

#include <pthread.h>
#include <sched.h>

namespace maptune {

namespace {

// The helper runs on any core but the reader's. Started while the other core
// is busy (a local PostgreSQL backend sending the rows), the kernel places it
// beside the reader, and the two then share one core for the whole draw
// while the other idles: at concurrency 1, 3 of 4 PostGIS draws took twice
// their CPU time in wall time. The thread ends with the layer.
void keepOffThisCore(std::thread& t)
{
    const int here = sched_getcpu();
    cpu_set_t allowed;
    if (here < 0 || sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    CPU_CLR(here, &allowed);
    if (CPU_COUNT(&allowed) == 0) return;
    pthread_setaffinity_np(t.native_handle(), sizeof allowed, &allowed);
}

}  // namespace

LineBandPainter::LineBandPainter(QImage& canvas, const LayerDef& layer, const StyleResolver& resolver, double scale,
                                 DrawItemQueue& items, const CancelToken& cancel, Helper helper)
    : m_helperMode(helper), m_layer(layer), m_resolver(resolver), m_scale(scale), m_items(items), m_cancel(cancel),
      m_target(PixelTarget::whole(canvas))
{
    for (const ClassDef& c : layer.classes) m_passes = std::max(m_passes, int(c.styles.size()));
    if (helper == Helper::None) {
        m_split = m_target.height;
        return;
    }
    m_split = m_target.height / 2;
    m_helper = std::thread([this] { helperMain(); });
    keepOffThisCore(m_helper);
}

LineBandPainter::~LineBandPainter()
{
    m_items.close();
    if (m_helper.joinable()) m_helper.join();
}

void LineBandPainter::helperMain()
{
    // The first pass whole while the reader runs, then the bottom band.
    const PixelTarget bottom = m_target.band(m_split, m_target.height);
    LinePenCache pens;
    bool split = m_helperMode != Helper::FollowsReader;
    qsizetype i = 0;
    if (split) {
        m_items.waitClosed();  // until the reader is done
        i = m_wholeDone.load(std::memory_order_acquire);  // the reader drew these whole while it waited
    }
    for (; m_passes > 0 && !m_cancel.isCancelled() && m_items.waitFor(i); ++i) {
        if (!split) {
            qsizetype expected = i;
            if (m_wholeClaim.compare_exchange_strong(expected, i + 1)) {
                drawItem(m_items[i], 0, m_target, pens);
                m_wholeDone.store(i + 1, std::memory_order_release);
                m_wholeDone.notify_one();
                continue;
            }
            split = true;
        }
        drawItem(m_items[i], 0, bottom, pens);
    }
    for (int pass = 1; pass < m_passes && !m_cancel.isCancelled(); ++pass) drawPass(pass, bottom, 0, pens);
}

bool LineBandPainter::drawWhileWaiting()
{
    // A few microseconds of drawing between two looks at the socket: a row
    // that arrives meanwhile waits at most that long.
    constexpr int Batch = 4;
    if (m_helperMode == Helper::FollowsReader || m_passes == 0) return false;
    const qsizetype published = m_items.size();
    qsizetype i = m_wholeClaim.load(std::memory_order_relaxed);
    if (i == Split || i >= published) return false;
    const qsizetype end = std::min(published, i + Batch);
    for (; i < end; ++i) drawItem(m_items[i], 0, m_target, m_readerPens);
    // This thread is the only one claiming: no helper draws whole here.
    m_wholeClaim.store(end, std::memory_order_relaxed);
    m_wholeDone.store(end, std::memory_order_release);
    return true;
}

void LineBandPainter::finish()
{
    m_items.close();
    // From here the helper draws only the bottom band; the top band of the
    // features it has not claimed is this thread's, once the claimed ones
    // are drawn (the pixels must see the features in order).
    const qsizetype first = m_wholeClaim.exchange(Split);
    for (qsizetype done = m_wholeDone.load(std::memory_order_acquire); done < first;
         done = m_wholeDone.load(std::memory_order_acquire))
        m_wholeDone.wait(done);
    const PixelTarget top = m_target.band(0, m_split);
    LinePenCache& pens = m_readerPens;
    for (int pass = 0; pass < m_passes && !m_cancel.isCancelled(); ++pass) drawPass(pass, top, pass == 0 ? first : 0, pens);
    if (m_helper.joinable()) m_helper.join();
}

void LineBandPainter::drawPass(int pass, const PixelTarget& target, qsizetype from, LinePenCache& pens)
{
    const qsizetype n = m_items.size();
    for (qsizetype i = from; i < n; ++i) drawItem(m_items[i], pass, target, pens);
}

void LineBandPainter::drawItem(const DrawItem& item, int pass, const PixelTarget& target, LinePenCache& pens) const
{
    const auto& styles = m_layer.classes[item.cls].styles;
    if (pass >= styles.size()) return;
    const StyleDef& s = styles[pass];
    const ResolvedStyle r = m_resolver.resolve(s, item.values);
    const bool perpendicular = r.offsetY == LineOffset::SingleSided || r.offsetY == LineOffset::DoubleSided;
    // How far ink can reach from the geometry: half the widest stroke, offsets, antialiasing.
    const double reach = r.width / 2 + std::max(r.outlineWidth, 0.0) + std::abs(r.offsetX)
                         + (perpendicular ? 0 : std::abs(r.offsetY)) + 2;
    if (item.bottom + reach < target.top || item.top - reach > target.bottom) return;
    // Most styles have no offset: their lines are drawn as they are, without
    // a copy of the list per feature and pass.
    const bool shifted = r.offsetX != 0 || r.offsetY != 0;
    const QList<QPolygonF> offsetParts = shifted ? LineOffset::apply(item.parts, r.offsetX, r.offsetY) : QList<QPolygonF>();
    const QList<QPolygonF>& parts = shifted ? offsetParts : item.parts;
    const double outlineWidth = r.width + 2 * r.outlineWidth;
    if (r.outline.isValid() && outlineWidth > 0)
        StrokePainter::strokeInto(target, parts, pens.pen(r.outline, outlineWidth, s, m_scale), false,
                                  StrokePainter::coverageFor(s));
    if (r.color.isValid() && r.width > 0)
        StrokePainter::strokeInto(target, parts, pens.pen(r.color, r.width, s, m_scale), false,
                                  StrokePainter::coverageFor(s));
}

}  // namespace maptune
