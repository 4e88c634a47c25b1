#pragma once
// Small RAII and error helpers shared by the demo's raster and vector writers.

#include <cpl_error.h>
#include <cpl_string.h>

#include <string>

namespace maptune::demo {

// A GDAL "KEY=VALUE" option list (char**), freed on scope exit.
struct OptionList
{
    char** list = nullptr;
    OptionList() = default;
    OptionList(const OptionList&) = delete;
    OptionList& operator=(const OptionList&) = delete;
    ~OptionList() { CSLDestroy(list); }
    void add(const char* option) { list = CSLAddString(list, option); }
};

// `what`, followed by GDAL's last error message when there is one.
inline std::string gdalError(const std::string& what)
{
    const char* message = CPLGetLastErrorMsg();
    return what + (message && *message ? std::string(": ") + message : std::string());
}

} // namespace maptune::demo
