#include "help_dialog.h"

#include "render/engine.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace maptune {

namespace {

QString manual()
{
    QFile file(QStringLiteral(":/help/manual.html"));
    if (!file.open(QIODevice::ReadOnly)) return QStringLiteral("<p>The manual is missing from this build.</p>");
    return QString::fromUtf8(file.readAll());
}

QString plainText(const QAction* action)
{
    QString text = action->text();
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    return text.replace(QStringLiteral("&&"), QStringLiteral("&"));
}

}  // namespace

HelpDialog::HelpDialog(const QList<QAction*>& actions, QWidget* parent) : QDialog(parent), m_browser(new QTextBrowser)
{
    setWindowTitle(tr("MapTune Help"));
    m_browser->setOpenExternalLinks(true);
    m_browser->setHtml(html(actions));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
    resize(640, 620);
}

QString HelpDialog::shortcutsTable(const QList<QAction*>& actions)
{
    QString rows;
    for (const QAction* action : actions) {
        if (action->shortcut().isEmpty()) continue;
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                         plainText(action).toHtmlEscaped());
    }
    return QStringLiteral("<table cellpadding=\"3\">%1</table>").arg(rows);
}

QString HelpDialog::html(const QList<QAction*>& actions)
{
    return manual() + tr("<h3>Keyboard shortcuts</h3>") + shortcutsTable(actions)
           + tr("<h3>Version</h3><p>MapTune %1</p><p>%2</p>")
                 .arg(QStringLiteral(MAPTUNE_VERSION), engineVersions().toHtmlEscaped());
}

}  // namespace maptune
