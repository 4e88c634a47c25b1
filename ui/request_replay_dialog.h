#pragma once
// File ▸ Open Request…: a pasted mapserv or WMS URL replayed against the open
// map, answered in process as the embedded server would answer it (its map=
// ignored: the open map answers), and the answer shown: the image, or the
// XML, HTML or text, with its Content-Type, size and time.

#include "render/prepared_map.h"
#include "wms/response.h"

#include <QDialog>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QImage>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;

namespace maptune {

class RequestReplayDialog : public QDialog {
    Q_OBJECT
public:
    explicit RequestReplayDialog(QWidget* parent = nullptr);
    ~RequestReplayDialog() override;

    // The map that answers (the canvas's); null: Send is off.
    void setMap(PreparedMapPtr map);
    void setUrl(const QString& url);

    QString statusText() const;
    // What the dialog shows: the answer's image (null for text) and text.
    QImage shownImage() const { return m_shownImage; }
    QString shownText() const;
    bool isBusy() const { return m_watcher.isRunning(); }

public Q_SLOTS:
    void send();

Q_SIGNALS:
    void answered();

private:
    void showAnswer();
    void updateSendButton();

    QLineEdit* m_url = nullptr;
    QPushButton* m_send = nullptr;
    QLabel* m_status = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_image = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QImage m_shownImage;
    PreparedMapPtr m_map;
    QFutureWatcher<Response> m_watcher;
    QElapsedTimer m_clock;
};

}  // namespace maptune
