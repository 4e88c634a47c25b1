#pragma once
// Structured edits of a mapfile's text that keep everything else as
// written: each is one contiguous replacement (a move is one replacement of
// the span both layers cover), found from the syntax alone. Layers are named
// by NAME; classes and styles by their index in the layer / class. Only the
// text's own blocks can be edited: a layer read through INCLUDE is not in it
// (std::nullopt).

#include <QByteArray>
#include <QString>

#include <optional>

namespace maptune {

struct TextEdit {
    int offset = 0;          // bytes into the UTF-8 text
    int length = 0;          // bytes replaced
    QByteArray replacement;
    QByteArray applied(const QByteArray& text) const
    {
        QByteArray out = text;
        out.replace(offset, length, replacement);
        return out;
    }
};

// How many CLASS blocks the LAYER has in the text, and STYLE blocks one of
// them has (-1: no such layer or class). A model whose counts differ (classes
// read through INCLUDE, class-level style keywords) must not be edited by index.
int classCount(const QByteArray& text, const QString& layer);
int styleCount(const QByteArray& text, const QString& layer, int classIndex);

// STATUS ON / OFF / DEFAULT: the value replaced, or a STATUS line added after NAME.
std::optional<TextEdit> setLayerStatus(const QByteArray& text, const QString& layer, const QString& status);
// The LAYER block (its whole lines) moved before `before` (empty: after the last LAYER).
std::optional<TextEdit> moveLayer(const QByteArray& text, const QString& layer, const QString& before);
// A new CLASS (NAME "new class", one STYLE) before the LAYER's END.
std::optional<TextEdit> addClass(const QByteArray& text, const QString& layer);
std::optional<TextEdit> duplicateClass(const QByteArray& text, const QString& layer, int classIndex);
std::optional<TextEdit> removeClass(const QByteArray& text, const QString& layer, int classIndex);
std::optional<TextEdit> duplicateStyle(const QByteArray& text, const QString& layer, int classIndex, int styleIndex);
std::optional<TextEdit> removeStyle(const QByteArray& text, const QString& layer, int classIndex, int styleIndex);
// KEYWORD value in a STYLE ("COLOR", "255 0 0"): the values replaced, or a line added.
std::optional<TextEdit> setStyleValue(const QByteArray& text, const QString& layer, int classIndex, int styleIndex,
                                      const QString& keyword, const QString& value);

}  // namespace maptune
