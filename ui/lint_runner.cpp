#include "lint_runner.h"

#include "map_document.h"

#include "lint/map_linter.h"

#include <QtConcurrent/QtConcurrentRun>

namespace maptune {

namespace {

LintFindings withoutParserFindings(LintFindings findings)
{
    findings.removeIf([](const LintFinding& f) { return f.ruleId == QLatin1String("MT001"); });
    return findings;
}

}  // namespace

LintRunner::LintRunner(MapDocument* document, QObject* parent) : QObject(parent), m_document(document)
{
    m_delay.setSingleShot(true);
    m_delay.setInterval(600);
    connect(&m_delay, &QTimer::timeout, this, &LintRunner::start);
    connect(&m_watcher, &QFutureWatcher<LintFindings>::finished, this, &LintRunner::finished);
    connect(document, &MapDocument::diagnosticsChanged, this, [this] { m_delay.start(); });
}

void LintRunner::start()
{
    if (m_watcher.isRunning()) {
        m_again = true;
        return;
    }
    m_running = m_document->text().toUtf8();
    const QString path = m_document->path();
    const QByteArray text = m_running;
    m_watcher.setFuture(QtConcurrent::run([text, path] { return withoutParserFindings(lintMapText(text, path)); }));
}

void LintRunner::finished()
{
    take(m_watcher.result(), m_running);
    if (m_again) {
        m_again = false;
        start();
    }
}

void LintRunner::lintNow()
{
    const QByteArray text = m_document->text().toUtf8();
    take(withoutParserFindings(lintMapText(text, m_document->path())), text);
}

void LintRunner::take(LintFindings findings, QByteArray text)
{
    if (text != m_document->text().toUtf8()) return;  // typed on since: a newer lint follows
    m_findings = std::move(findings);
    m_linted = std::move(text);
    Q_EMIT findingsChanged();
}

bool LintRunner::applyEdit(const LintFinding& finding)
{
    if (!finding.edit || finding.edit->offset < 0 || finding.edit->file != m_document->path()) return false;
    if (m_document->text().toUtf8() != m_linted) return false;
    const LintEdit& e = *finding.edit;
    return m_document->applyEdit(TextEdit{e.offset, e.length, e.replacement.toUtf8()});
}

}  // namespace maptune
