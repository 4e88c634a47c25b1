#pragma once
// Completion in the mapfile editor: on Ctrl+Space, and as one types a word
// of two letters or a space after a keyword that takes fixed values, a
// popup of what the keyword schema allows at the cursor (the block's
// keywords, the keyword's values) and what the open map knows (its symbols,
// FONTSET aliases, the layer's attribute names).

#include "mapfile/map_def.h"
#include "mapfile/syntax/mapfile_completion.h"

#include <QHash>
#include <QObject>
#include <QStringList>

class QCompleter;
class QKeyEvent;
class QPlainTextEdit;
class QStandardItemModel;

namespace maptune {

class MapfileCompleter : public QObject {
    Q_OBJECT
public:
    explicit MapfileCompleter(QPlainTextEdit* editor);

    // The map the names come from (the last one that loaded); may be null.
    void setMap(MapDefPtr map);
    const MapDefPtr& map() const { return m_map; }

    // From the editor's keyPressEvent: before it (true: the key was ours)
    // and after it (the text may have changed).
    bool keyBefore(QKeyEvent* event);
    void keyAfter(QKeyEvent* event);

    // Shows the candidates at the cursor; false when there are none.
    bool showCompletions();
    bool isPopupVisible() const;
    QStringList visibleCompletions() const;  // what the popup lists, in order
    QCompleter* completer() const { return m_completer; }

private:
    CompletionContext contextAtCursor() const;
    bool showCompletions(const CompletionContext& context);
    void insertCompletion(const QString& text);
    CompletionSources sourcesFor(const QString& layerName);

    QPlainTextEdit* m_editor;
    QCompleter* m_completer;
    QStandardItemModel* m_model;
    MapDefPtr m_map;
    QHash<QString, QStringList> m_attributes;  // layer name -> fields, for m_map
    int m_prefixLength = 0;                    // characters of the word being completed
};

}  // namespace maptune
