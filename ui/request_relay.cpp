#include "request_relay.h"

namespace maptune {

RequestRelay::RequestRelay(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<maptune::ServedRequest>();
}

void RequestRelay::requestServed(const ServedRequest& request)
{
    Q_EMIT served(request);
}

}  // namespace maptune
