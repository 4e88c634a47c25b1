#include "geo/proj_context.h"

#include <memory>

namespace maptune {

namespace {
struct ContextDeleter {
    void operator()(PJ_CONTEXT* ctx) const { proj_context_destroy(ctx); }
};
}  // namespace

PJ_CONTEXT* threadProjContext()
{
    thread_local std::unique_ptr<PJ_CONTEXT, ContextDeleter> ctx{[] {
        PJ_CONTEXT* c = proj_context_create();
        proj_log_level(c, PJ_LOG_NONE);  // errors come back through our own messages
        return c;
    }()};
    return ctx.get();
}

}  // namespace maptune
