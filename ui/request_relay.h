#pragma once
// The GUI side of the server's RequestObserver: called on connection threads,
// it re-emits each served request as a queued signal so that the request log
// and the charts update on the GUI thread and never hold up a response.

#include "server/request_observer.h"

#include <QObject>

namespace maptune {

class RequestRelay : public QObject, public RequestObserver {
    Q_OBJECT
public:
    explicit RequestRelay(QObject* parent = nullptr);
    void requestServed(const ServedRequest& request) override;

Q_SIGNALS:
    void served(const maptune::ServedRequest& request);
};

}  // namespace maptune
