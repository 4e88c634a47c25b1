#pragma once
// A LINE layer that strokes directly (StrokePainter::drawsLayerDirectly),
// drawn in MapServer's passes (the first STYLE of every feature, then the
// second...) while its features are still being read, and on two threads
// when the machine has a core to spare.
//
// The first pass of a feature can be drawn whole as soon as it is published:
// by a helper thread that follows the reader (a file), or by the reader
// itself while its database has not sent the next row (drawWhileWaiting).
// Once the reader is done, the image is split into two row bands: the helper
// draws the bottom one, the first pass of the features not drawn yet and then
// the later passes, while the calling thread draws the same in the top one.
// Both walk the features in the same order and the rasterizer clips bands
// exactly, so the pixels are those of a single thread. Without a helper the
// calling thread draws the whole image.

#include "mapfile/map_def.h"
#include "render/draw_item.h"
#include "render/line_pen_cache.h"
#include "render/stroke_painter.h"
#include "render/style_resolver.h"
#include "trace/cancel_token.h"

#include <QImage>

#include <atomic>
#include <thread>

namespace maptune {

class LineBandPainter {
public:
    enum class Helper {
        // Draws the first pass of each feature as it is pushed, then its band.
        FollowsReader,
        // Waits for the reader's last feature, then draws its band only (a
        // local database's server process needs the core until then).
        AfterReader,
        // No helper thread.
        None,
    };
    // Starts the helper, if any, at once.
    LineBandPainter(QImage& canvas, const LayerDef& layer, const StyleResolver& resolver, double scale,
                    DrawItemQueue& items, const CancelToken& cancel, Helper helper = Helper::FollowsReader);
    // Closes the queue (if the reader stopped early) and waits for the helper.
    ~LineBandPainter();
    LineBandPainter(const LineBandPainter&) = delete;
    LineBandPainter& operator=(const LineBandPainter&) = delete;

    // On the reading thread, while its source waits for the next feature
    // (FeatureQuery::whileWaiting): draws the first pass of a few features
    // already pushed, whole. False when none was waiting (or a helper that
    // follows the reader draws them).
    bool drawWhileWaiting();
    // After the last push: closes the queue, draws the top band and waits for the helper.
    void finish();

private:
    void helperMain();
    // `pens`: the calling thread's own.
    void drawPass(int pass, const PixelTarget& target, qsizetype from, LinePenCache& pens);
    void drawItem(const DrawItem& item, int pass, const PixelTarget& target, LinePenCache& pens) const;

    const Helper m_helperMode;
    const LayerDef& m_layer;
    const StyleResolver& m_resolver;
    const double m_scale;
    DrawItemQueue& m_items;
    const CancelToken m_cancel;
    PixelTarget m_target;
    int m_passes = 0;
    int m_split = 0;  // the first row of the helper's band
    // One thread draws features whole (first pass): the helper that follows
    // the reader, or else the reader while it waits. It claims them while
    // this holds their index; finish() swaps in Split, after which only
    // bands are drawn. m_wholeDone counts the whole features drawn.
    static constexpr qsizetype Split = -1;
    std::atomic<qsizetype> m_wholeClaim{0};
    std::atomic<qsizetype> m_wholeDone{0};
    LinePenCache m_readerPens;  // drawWhileWaiting's
    std::thread m_helper;
};

}  // namespace maptune
