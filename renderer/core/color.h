#pragma once
// A colour as a mapfile gives it.

namespace maptune {

// An RGB(A) colour; r < 0 means "not set" (MapServer's -1 -1 -1).
struct Color {
    int r = -1, g = -1, b = -1, a = 255;
    bool isSet() const { return r >= 0 && g >= 0 && b >= 0; }
    static Color rgb(int r, int g, int b, int a = 255) { return {r, g, b, a}; }
    bool operator==(const Color&) const = default;
};

}  // namespace maptune
