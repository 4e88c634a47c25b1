#pragma once
// A LINE layer that strokes directly (StrokePainter::drawsLayerDirectly),
// drawn on two threads. While the calling thread reads, a helper draws the
// first STYLE of each feature as it is published (MapServer draws a line
// layer's styles in passes). Once the reader is done, the image is split
// into two row bands: the helper draws the bottom one, the first pass of
// the features it had not reached and then the later passes, while the
// calling thread draws the same in the top one. Both walk the features in
// the same order and the rasterizer clips bands exactly, so the pixels are
// those of a single thread.

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
    // Starts the helper at once: it draws items as they are pushed, or with
    // `followReader` false waits for the last one and draws its band only.
    LineBandPainter(QImage& canvas, const LayerDef& layer, const StyleResolver& resolver, double scale,
                    DrawItemQueue& items, const CancelToken& cancel, bool followReader = true);
    // Closes the queue (if the reader stopped early) and waits for the helper.
    ~LineBandPainter();
    LineBandPainter(const LineBandPainter&) = delete;
    LineBandPainter& operator=(const LineBandPainter&) = delete;

    // After the last push: closes the queue, draws the top band and waits for the helper.
    void finish();

private:
    void helperMain();
    // `pens`: the calling thread's own.
    void drawPass(int pass, const PixelTarget& target, qsizetype from, LinePenCache& pens);
    void drawItem(const DrawItem& item, int pass, const PixelTarget& target, LinePenCache& pens) const;

    const bool m_followReader;
    const LayerDef& m_layer;
    const StyleResolver& m_resolver;
    const double m_scale;
    DrawItemQueue& m_items;
    const CancelToken m_cancel;
    PixelTarget m_target;
    int m_passes = 0;
    int m_split = 0;  // the first row of the helper's band
    // The helper claims features to draw whole (first pass) while this
    // holds their index; finish() swaps in Split, after which it draws
    // bands. m_wholeDone counts the whole features drawn.
    static constexpr qsizetype Split = -1;
    std::atomic<qsizetype> m_wholeClaim{0};
    std::atomic<qsizetype> m_wholeDone{0};
    std::thread m_helper;
};

}  // namespace maptune
