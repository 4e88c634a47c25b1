#pragma once
// A label FONT as MapServer reads it: font keys separated by commas, tried
// in turn for each run of text, a key tagged with a script prefix
// ("ar:arabic", "cn:cjk") tried first for text in that script. Keys are
// looked up in the map's FONTSET (textlayout.c get_face_for_run).

#include "mapfile/key_values.h"

#include <QList>
#include <QString>

namespace maptune {

struct FontList {
    struct Entry {
        QString prefix;  // "ar:" for "ar:arabic"; empty when untagged
        QString path;    // the FONTSET's file; empty when the FONTSET has no such key
    };
    // Empty: no FONT, MapServer's built-in font.
    QList<Entry> entries;

    bool isBuiltIn() const { return entries.isEmpty(); }
    static FontList parse(const QString& font, const KeyValues& fontset);
    // A LABEL's: a BITMAP label whose FONT the FONTSET lacks writes in the
    // built-in font (a TRUETYPE one is an error, reported with the layer).
    static FontList forLabel(const QString& font, const KeyValues& fontset, bool trueType);
};

}  // namespace maptune
