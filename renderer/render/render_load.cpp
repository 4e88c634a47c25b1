#include "render/render_load.h"

#include <atomic>
#include <thread>

namespace maptune {

namespace {
std::atomic<int> g_active{0};
// Scopes nest on one thread (a WMS request, then its render): the outermost counts.
thread_local int t_depth = 0;
}

RenderLoad::Scope::Scope()
{
    if (t_depth++ == 0) g_active.fetch_add(1, std::memory_order_relaxed);
}
RenderLoad::Scope::~Scope()
{
    if (--t_depth == 0) g_active.fetch_sub(1, std::memory_order_relaxed);
}

RenderLoad::Elsewhere::Elsewhere() { g_active.fetch_add(1, std::memory_order_relaxed); }
RenderLoad::Elsewhere::~Elsewhere() { g_active.fetch_sub(1, std::memory_order_relaxed); }

RenderLoad::Adopted::Adopted() { ++t_depth; }
RenderLoad::Adopted::~Adopted() { --t_depth; }

int RenderLoad::active() { return g_active.load(std::memory_order_relaxed); }

bool RenderLoad::hasSpareCore()
{
    static const unsigned cores = std::thread::hardware_concurrency();
    return cores >= 2 && active() <= 1;
}

}  // namespace maptune
