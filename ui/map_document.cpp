#include "map_document.h"

#include <QTextCursor>

#include "io/atomic_write.h"

#include "mapfile/map_formatter.h"
#include "mapfile/map_loader.h"
#include "mapfile/map_validator.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPlainTextDocumentLayout>
#include <QStandardPaths>

namespace maptune {

namespace {

constexpr int kPreviewDelayMs = 400;
constexpr int kAutosaveMs = 30000;

Result<QByteArray> readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error(QObject::tr("cannot open %1: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
    return f.readAll();
}

}  // namespace

MapDocument::MapDocument(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<maptune::Diagnostics>();
    qRegisterMetaType<maptune::MapDefPtr>();
    m_text.setDocumentLayout(new QPlainTextDocumentLayout(&m_text));
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kPreviewDelayMs);
    m_autosave.setInterval(kAutosaveMs);
    connect(&m_debounce, &QTimer::timeout, this, &MapDocument::compileNow);
    connect(&m_text, &QTextDocument::contentsChanged, this, [this] { m_debounce.start(); });
    connect(&m_text, &QTextDocument::modificationChanged, this, &MapDocument::modificationChanged);
    connect(&m_autosave, &QTimer::timeout, this, [this] {
        // A failed autosave is retried at the next tick; the edits are still in the editor.
        if (isModified()) (void)writeAutosave();
    });
    m_autosave.start();
}

void MapDocument::setPath(const QString& path)
{
    m_path = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    Q_EMIT pathChanged(m_path);
}

Status MapDocument::open(const QString& path)
{
    const Result<QByteArray> bytes = readAll(path);
    if (!bytes) return bytes.error();
    setText(QString::fromUtf8(*bytes), path);
    return {};
}

void MapDocument::setText(const QString& text, const QString& virtualPath)
{
    setPath(virtualPath);
    m_lastGood.reset();
    m_freshFile = true;
    m_text.setPlainText(text);
    m_text.clearUndoRedoStacks();
    m_text.setModified(false);
    compileNow();
}

Status MapDocument::save()
{
    if (m_path.isEmpty()) return Error(tr("the map has no file name yet: use Save As"));
    return saveAs(m_path);
}

Status MapDocument::saveAs(const QString& path)
{
    if (const Status written = writeFileAtomically(path, m_text.toPlainText().toUtf8()); !written) return written;
    discardAutosave();
    if (QFileInfo(path).absoluteFilePath() != m_path) setPath(path);
    m_text.setModified(false);
    compileNow();
    return {};
}

QString MapDocument::autosavePath(const QString& path)
{
    if (!path.isEmpty()) return path + QStringLiteral(".autosave");
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir + QStringLiteral("/untitled.map.autosave");
}

bool MapDocument::hasRecovery(const QString& path)
{
    const QFileInfo autosave(autosavePath(path));
    if (!autosave.exists()) return false;
    const QFileInfo file(path);
    if (file.exists() && autosave.lastModified() < file.lastModified()) return false;
    QFile a(autosave.filePath()), f(path);
    if (!a.open(QIODevice::ReadOnly)) return false;
    if (!f.open(QIODevice::ReadOnly)) return true;
    return a.readAll() != f.readAll();
}

Status MapDocument::recover()
{
    const Result<QByteArray> bytes = readAll(autosavePath(m_path));
    if (!bytes) return bytes.error();
    // One undoable replacement, and the document counts as edited.
    QTextCursor cursor(&m_text);
    cursor.select(QTextCursor::Document);
    cursor.insertText(QString::fromUtf8(*bytes));
    m_text.setModified(true);
    compileNow();
    return {};
}

Status MapDocument::writeAutosave()
{
    return writeFileAtomically(autosavePath(m_path), m_text.toPlainText().toUtf8());
}

void MapDocument::discardAutosave() { QFile::remove(autosavePath(m_path)); }

bool MapDocument::compileNow()
{
    m_debounce.stop();
    LoadResult loaded = parseMapText(m_text.toPlainText().toUtf8(), m_path);
    Diagnostics diagnostics = loaded.diagnostics;
    const bool parsed = loaded.map && !hasErrors(diagnostics);
    // The validator's findings (a missing data file, an unknown EPSG code)
    // are shown, but the map is drawn anyway: the renderer draws every layer
    // it can and names the ones it cannot, as `maptune-cli render` does.
    // They are listed beside the parse errors too, as `maptune-cli check`
    // lists them, so that one pass shows everything to fix.
    if (loaded.map) diagnostics += validateMap(*loaded.map);
    m_diagnostics = diagnostics;
    Q_EMIT diagnosticsChanged(m_diagnostics);
    if (!parsed) {
        // Another file's last good map must not show under this file's name.
        if (m_freshFile) {
            m_freshFile = false;
            m_lastGood.reset();
            Q_EMIT mapChanged(nullptr, false);
        }
        return false;  // an edit of this file: keep showing its last good map
    }
    m_lastGood = std::move(loaded.map);
    const bool sameFile = !m_freshFile;
    m_freshFile = false;
    Q_EMIT mapChanged(m_lastGood, sameFile);
    return true;
}

Result<QString> MapDocument::formatted() const
{
    const FormatResult result = formatMapText(m_text.toPlainText().toUtf8(), m_path);
    if (!result.ok()) return Error(tr("the mapfile has errors: fix them before formatting"));
    return result.text;
}

bool MapDocument::applyEdit(const std::optional<TextEdit>& edit, bool join)
{
    if (!edit) return false;
    const QByteArray text = m_text.toPlainText().toUtf8();
    if (edit->offset < 0 || edit->offset + edit->length > text.size()) return false;
    // Byte offsets of the UTF-8 text to character positions of the document.
    const int from = int(QString::fromUtf8(text.left(edit->offset)).size());
    const int to = int(QString::fromUtf8(text.left(edit->offset + edit->length)).size());
    QTextCursor cursor(&m_text);
    if (join) cursor.joinPreviousEditBlock();
    else cursor.beginEditBlock();
    cursor.setPosition(from);
    cursor.setPosition(to, QTextCursor::KeepAnchor);
    cursor.insertText(QString::fromUtf8(edit->replacement));
    cursor.endEditBlock();
    return true;
}

}  // namespace maptune
