#include "request_replay_dialog.h"

#include "wms/mapserv/mapserv_url.h"
#include "wms/wms_service.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QPainter>
#include <QSvgRenderer>
#include <QtConcurrent/QtConcurrentRun>

namespace maptune {

namespace {

// A body worth showing as text: XML, HTML, JSON, plain text, or any body
// without NUL bytes that is not an image.
bool isText(const QByteArray& contentType, const QByteArray& body)
{
    const QByteArray type = contentType.toLower();
    if (type.startsWith("image/")) return false;
    if (type.startsWith("text/") || type.contains("xml") || type.contains("json") || type.contains("html")) return true;
    return !body.left(4096).contains('\0');
}

// An answer drawn as an image: raster formats decoded, SVG rendered at its own size.
QImage imageOf(const QByteArray& contentType, const QByteArray& body)
{
    if (!contentType.toLower().contains("svg")) return QImage::fromData(body);
    QSvgRenderer svg(body);
    if (!svg.isValid()) return {};
    QImage image(svg.viewBox().size().boundedTo(QSize(8192, 8192)), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) return {};
    image.fill(Qt::transparent);
    QPainter p(&image);
    svg.render(&p);
    return image;
}

}  // namespace

RequestReplayDialog::RequestReplayDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Open Request"));
    setObjectName(QStringLiteral("requestReplayDialog"));
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("requestUrl"));
    m_url->setPlaceholderText(tr("Paste a mapserv or WMS URL, e.g. …/mapserv?map=x.map&mode=map&layers=roads"));
    m_url->setClearButtonEnabled(true);
    m_send = new QPushButton(tr("&Send"), this);
    m_send->setObjectName(QStringLiteral("sendRequest"));
    m_send->setDefault(true);
    m_status = new QLabel(tr("The open map answers; a map= in the URL is ignored."), this);
    m_status->setObjectName(QStringLiteral("requestStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_image = new QLabel(this);
    m_image->setAlignment(Qt::AlignCenter);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_image);
    scroll->setWidgetResizable(true);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("requestAnswerText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_text);
    m_stack->addWidget(scroll);

    auto* row = new QHBoxLayout;
    row->addWidget(m_url, 1);
    row->addWidget(m_send);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(m_status);
    layout->addWidget(m_stack, 1);
    layout->addWidget(buttons);
    resize(720, 520);

    connect(m_send, &QPushButton::clicked, this, &RequestReplayDialog::send);
    connect(m_url, &QLineEdit::returnPressed, this, &RequestReplayDialog::send);
    connect(m_url, &QLineEdit::textChanged, this, &RequestReplayDialog::updateSendButton);
    connect(&m_watcher, &QFutureWatcher<Response>::finished, this, &RequestReplayDialog::showAnswer);
    updateSendButton();
}

RequestReplayDialog::~RequestReplayDialog()
{
    m_watcher.waitForFinished();
}

void RequestReplayDialog::setMap(PreparedMapPtr map)
{
    m_map = std::move(map);
    updateSendButton();
}

void RequestReplayDialog::setUrl(const QString& url)
{
    m_url->setText(url);
}

QString RequestReplayDialog::statusText() const
{
    return m_status->text();
}

QString RequestReplayDialog::shownText() const
{
    return m_text->toPlainText();
}

void RequestReplayDialog::updateSendButton()
{
    m_send->setEnabled(m_map && !m_url->text().trimmed().isEmpty() && !m_watcher.isRunning());
}

void RequestReplayDialog::send()
{
    if (!m_map || m_watcher.isRunning()) return;
    const Result<QByteArray> query = replayQuery(m_url->text());
    if (!query) {
        m_status->setText(query.message());
        return;
    }
    m_status->setText(tr("Asking…"));
    m_clock.start();
    const PreparedMapPtr map = m_map;
    const QByteArray q = *query;
    m_watcher.setFuture(QtConcurrent::run([map, q] { return WmsService(map).handle(WmsRequest::fromQueryString(q)); }));
    updateSendButton();
}

void RequestReplayDialog::showAnswer()
{
    const Response r = m_watcher.result();
    const double ms = m_clock.nsecsElapsed() / 1e6;
    const QByteArray type = r.contentType();
    QString what;
    if (isText(type, r.body)) {
        m_shownImage = QImage();
        m_text->setPlainText(QString::fromUtf8(r.body));
        m_stack->setCurrentIndex(0);
        what = tr("%n byte(s)", nullptr, int(r.body.size()));
    } else {
        m_shownImage = imageOf(type, r.body);
        if (m_shownImage.isNull()) {
            m_text->setPlainText(tr("(%1 bytes of %2, not shown)").arg(r.body.size()).arg(QString::fromLatin1(type)));
            m_stack->setCurrentIndex(0);
            what = tr("%n byte(s)", nullptr, int(r.body.size()));
        } else {
            m_image->setPixmap(QPixmap::fromImage(m_shownImage));
            m_stack->setCurrentIndex(1);
            what = tr("%1×%2, %n byte(s)", nullptr, int(r.body.size())).arg(m_shownImage.width()).arg(m_shownImage.height());
        }
    }
    m_status->setText(tr("%1 · %2 · %3 · %4 ms").arg(r.status).arg(QString::fromLatin1(type.isEmpty() ? "no Content-Type" : type), what)
                          .arg(ms, 0, 'f', 1));
    updateSendButton();
    Q_EMIT answered();
}

}  // namespace maptune
