#pragma once
// Back/forward navigation through canvas views, like a browser: a new view
// drops everything ahead of the current one.

#include <QList>
#include <QPointF>

namespace maptune {

struct CanvasView {
    QPointF centre;          // map units
    double unitsPerPixel = 0;
    bool operator==(const CanvasView&) const = default;
};

class ViewHistory {
public:
    void push(const CanvasView& view)
    {
        if (m_index >= 0 && m_views[m_index] == view) return;
        m_views.erase(m_views.begin() + (m_index + 1), m_views.end());
        m_views.append(view);
        if (m_views.size() > kMax) m_views.removeFirst();
        m_index = int(m_views.size()) - 1;
    }
    bool canGoBack() const { return m_index > 0; }
    bool canGoForward() const { return m_index + 1 < m_views.size(); }
    CanvasView back() { return m_views[canGoBack() ? --m_index : m_index]; }
    CanvasView forward() { return m_views[canGoForward() ? ++m_index : m_index]; }
    void clear() { m_views.clear(); m_index = -1; }

private:
    static constexpr int kMax = 100;
    QList<CanvasView> m_views;
    int m_index = -1;
};

}  // namespace maptune
