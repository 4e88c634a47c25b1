#pragma once
// PROJ contexts are not thread-safe: one per thread, created on first use.

#include <proj.h>

namespace maptune {

PJ_CONTEXT* threadProjContext();

}  // namespace maptune
