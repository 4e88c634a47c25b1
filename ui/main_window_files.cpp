// MainWindow's document commands: opening (with recovery of autosaved
// edits), reloading, saving, the unsaved-edits question on leaving, the
// window title and the list of recent files (and the file opened at start).

#include "main_window.h"

#include "map_document.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

namespace maptune {

namespace {

constexpr int kMaxRecent = 8;
const char* const kRecentKey = "recentFiles";

}  // namespace

bool MainWindow::openFile(const QString& path)
{
    if (const Status opened = m_document->open(path); !opened) {
        QMessageBox::warning(this, tr("Open mapfile"), opened.message());
        return false;
    }
    if (MapDocument::hasRecovery(path)) {
        const auto answer = QMessageBox::question(
            this, tr("Recover unsaved edits"),
            tr("%1 has unsaved edits from a previous session (autosaved %2).\nRecover them?")
                .arg(QFileInfo(path).fileName(),
                     QFileInfo(MapDocument::autosavePath(path)).lastModified().toString(Qt::ISODate)),
            QMessageBox::Yes | QMessageBox::Discard);
        if (answer == QMessageBox::Yes) {
            if (const Status recovered = m_document->recover(); !recovered)
                QMessageBox::warning(this, tr("Recover unsaved edits"), recovered.message());
        } else {
            m_document->discardAutosave();
        }
    }
    addRecent(m_document->path());
    if (!m_document->lastGoodMap()) statusBar()->showMessage(tr("The mapfile has errors: see the Mapfile panel"));
    return true;
}

void MainWindow::open()
{
    if (!maybeSave()) return;
    const QString dir = m_document->path().isEmpty() ? QDir::homePath() : QFileInfo(m_document->path()).path();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open mapfile"), dir, tr("Mapfiles (*.map);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::reload()
{
    if (m_document->path().isEmpty()) return;
    if (m_document->isModified()) {
        const auto answer = QMessageBox::question(this, tr("Reload"), tr("Discard your unsaved edits and reload the file?"));
        if (answer != QMessageBox::Yes) return;
    }
    if (const Status opened = m_document->open(m_document->path()); !opened)
        QMessageBox::warning(this, tr("Reload"), opened.message());
}

bool MainWindow::save()
{
    if (m_document->path().isEmpty()) return saveAs();
    if (const Status saved = m_document->save(); !saved) {
        QMessageBox::warning(this, tr("Save"), saved.message());
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_document->path())), 3000);
    return true;
}

bool MainWindow::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save mapfile as"), m_document->path(),
                                                      tr("Mapfiles (*.map)"));
    if (path.isEmpty()) return false;
    if (const Status saved = m_document->saveAs(path); !saved) {
        QMessageBox::warning(this, tr("Save As"), saved.message());
        return false;
    }
    addRecent(path);
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified()) return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved edits"),
                                             tr("The mapfile has unsaved edits.\nSave them?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save) return save();
    if (answer == QMessageBox::Discard) {
        m_document->discardAutosave();
        return true;
    }
    return false;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
}

void MainWindow::updateTitle()
{
    const QString name = m_document->path().isEmpty() ? tr("untitled") : QFileInfo(m_document->path()).fileName();
    setWindowTitle(tr("%1[*] — MapTune").arg(name));
    setWindowModified(m_document->isModified());
    setWindowFilePath(m_document->path());
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(kRecentKey, recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent[i];
        QAction* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (maybeSave()) openFile(path);
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

QString MainWindow::startupFile()
{
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    if (!recent.isEmpty() && QFileInfo::exists(recent.first())) return recent.first();
    return demoMapPath();
}

}  // namespace maptune
