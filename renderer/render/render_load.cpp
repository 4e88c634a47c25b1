#include "render/render_load.h"

#include <atomic>
#include <thread>

namespace maptune {

namespace {
std::atomic<int> g_active{0};
// Scopes nest on one thread (a WMS request, then its render): the outermost counts.
thread_local int t_depth = 0;
}

RenderLoad::Scope::Scope(Kind kind) : m_kind(kind)
{
    const bool counts = kind == Kind::Elsewhere || (kind == Kind::Here && t_depth == 0);
    if (kind != Kind::Elsewhere) ++t_depth;
    if (counts) g_active.fetch_add(1, std::memory_order_relaxed);
}

RenderLoad::Scope::~Scope()
{
    if (m_kind != Kind::Elsewhere) --t_depth;
    const bool counted = m_kind == Kind::Elsewhere || (m_kind == Kind::Here && t_depth == 0);
    if (counted) g_active.fetch_sub(1, std::memory_order_relaxed);
}

int RenderLoad::active() { return g_active.load(std::memory_order_relaxed); }

bool RenderLoad::hasSpareCore()
{
    static const unsigned cores = std::thread::hardware_concurrency();
    return cores >= 2 && active() <= 1;
}

}  // namespace maptune
