#pragma once
// Which malloc the program runs on (CMake option MAPTUNE_JEMALLOC), for
// --version: allocation is a measurable share of a request.

#include <QString>

namespace maptune::cli {

QString allocatorVersion();

}  // namespace maptune::cli
