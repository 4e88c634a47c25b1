#pragma once
// Navigation in a mapfile's text, from its syntax alone (it works while the
// text does not parse): where the thing under the cursor is defined (an
// INCLUDE, SYMBOLSET, FONTSET, TEMPLATE or DATA file; a SYMBOL's block in
// the text or its SYMBOLSET; a FONT's line in the FONTSET), every use of a
// symbol or font, and an outline of the MAP/LAYER/CLASS/STYLE/LABEL blocks.

#include "core/source_pos.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace maptune {

struct NavigationTarget {
    QString file;        // absolute path; the text's own path for a place in it
    int line = 0;        // 1-based; 0: the file as a whole
    int column = 0;
    QString what;        // "SYMBOL 'circle'", "DATA file", ... for messages
    bool exists = false; // the file is there (a missing DATA file is still a target)
    bool found() const { return !file.isEmpty(); }
};

// mapPath: the file the text is (relative paths resolve against its folder,
// DATA and TILEINDEX against SHAPEPATH first, as MapServer does).
NavigationTarget definitionAt(const QByteArray& text, int offset, const QString& mapPath);

struct Reference {
    SourcePos pos;       // of the value naming it
    QString block;       // the block it is written in (STYLE, LABEL, ...)
};
// Every SYMBOL (keyword = "SYMBOL") or FONT (keyword = "FONT") value naming `name` in the text.
QList<Reference> referencesTo(const QByteArray& text, const QString& mapPath, const QString& keyword, const QString& name);
// The SYMBOL or FONT name under the offset ("" when the offset is on neither): for "find references".
std::pair<QString, QString> referenceNameAt(const QByteArray& text, int offset);

struct OutlineItem {
    QString keyword;     // MAP, LAYER, CLASS, STYLE, LABEL, SYMBOL, WEB, ...
    QString name;        // its NAME, when it has one
    int line = 0, endLine = 0;   // 1-based, of the keyword and its END (0: none)
    QList<OutlineItem> children;
};
// The blocks of the text, nested as written.
QList<OutlineItem> outlineOf(const QByteArray& text);

}  // namespace maptune
