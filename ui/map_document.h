#pragma once
// The mapfile being edited: its text (a QTextDocument the editor shows), its
// path, atomic saves (QSaveFile), autosave and crash recovery, and the live
// preview — the text is parsed and validated after a pause in typing, and
// only a map without errors replaces the last good one.

#include "core/result.h"
#include "mapfile/diagnostic.h"
#include "mapfile/map_def.h"
#include "mapfile/syntax/mapfile_edits.h"

#include <QObject>
#include <QTextDocument>
#include <QTimer>

namespace maptune {

class MapDocument : public QObject {
    Q_OBJECT
public:
    explicit MapDocument(QObject* parent = nullptr);

    QTextDocument* textDocument() { return &m_text; }
    QString path() const { return m_path; }
    QString text() const { return m_text.toPlainText(); }
    bool isModified() const { return m_text.isModified(); }

    // Replaces the document (not undoable) and compiles it at once.
    Status open(const QString& path);
    void setText(const QString& text, const QString& virtualPath = {});
    // Atomic: written to a temporary file and renamed over the target.
    Status save();
    Status saveAs(const QString& path);

    // Autosave lives next to the file ("<file>.autosave"), or in the app data
    // folder for an untitled map.
    static QString autosavePath(const QString& path);
    // An autosave newer than the file and with different text: a crashed session.
    static bool hasRecovery(const QString& path);
    Status recover();      // loads the autosave text as unsaved edits
    Status writeAutosave();
    void discardAutosave();
    void setAutosaveInterval(int ms) { m_autosave.setInterval(ms); }
    void setPreviewDelay(int ms) { m_debounce.setInterval(ms); }

    // Parses and validates now; returns true when the text gave a good map.
    bool compileNow();
    MapDefPtr lastGoodMap() const { return m_lastGood; }
    const Diagnostics& diagnostics() const { return m_diagnostics; }
    // Canonical text of the current text (writeMapFile); an error when it does not parse.
    Result<QString> formatted() const;
    // A structured edit (mapfile/syntax/mapfile_edits.h) of the text as it is
    // now, as one undo step -- joined to the step before when `join`.
    bool applyEdit(const std::optional<TextEdit>& edit, bool join = false);

Q_SIGNALS:
    void diagnosticsChanged(const maptune::Diagnostics& diagnostics);
    // A new good map from the text; `sameFile` is false after open(). Null
    // when a newly opened file does not parse (there is no good map of it).
    void mapChanged(maptune::MapDefPtr map, bool sameFile);
    void modificationChanged(bool modified);
    void pathChanged(const QString& path);

private:
    void setPath(const QString& path);

    QTextDocument m_text;
    QString m_path;
    QTimer m_debounce;
    QTimer m_autosave;
    MapDefPtr m_lastGood;
    Diagnostics m_diagnostics;
    bool m_freshFile = true;
};

}  // namespace maptune

