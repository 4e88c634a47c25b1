#pragma once
// Lints the open mapfile in the background after each edit has compiled
// (lint opens data files, which must not stall typing), and applies a
// finding's fix to the text as one undo step. MT001 (what the parser and
// validator say) is left out: the document's own diagnostics show it.

#include "lint/lint_finding.h"

#include <QByteArray>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

namespace maptune {

class MapDocument;

class LintRunner : public QObject {
    Q_OBJECT
public:
    explicit LintRunner(MapDocument* document, QObject* parent = nullptr);

    const LintFindings& findings() const { return m_findings; }
    // Lints the current text now, on this thread (tests, "Lint now").
    void lintNow();
    // Applies the finding's edit when the text is still the text it was found
    // in; false otherwise (the caller says "lint again").
    bool applyEdit(const LintFinding& finding);
    void setDelay(int ms) { m_delay.setInterval(ms); }

Q_SIGNALS:
    void findingsChanged();

private:
    void start();
    void finished();
    void take(LintFindings findings, QByteArray text);

    MapDocument* m_document;
    QTimer m_delay;
    QFutureWatcher<LintFindings> m_watcher;
    QByteArray m_running;      // the text the running lint is looking at
    QByteArray m_linted;       // the text m_findings were found in
    LintFindings m_findings;
    bool m_again = false;      // the text changed while a lint was running
};

}  // namespace maptune
