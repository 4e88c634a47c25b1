#pragma once
// One plain HTTP/1.0 GET over a loopback socket, for tests that talk to a
// running server (in process or a `maptune-cli serve` child) without a
// client library in between.

#include <QByteArray>
#include <QList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace maptune::test {

struct HttpReply {
    int status = 0;
    QByteArray head;
    QByteArray body;
    QByteArray header(const QByteArray& name) const
    {
        for (const QByteArray& line : head.split('\n'))
            if (line.toLower().startsWith(name.toLower() + ':')) return line.mid(name.size() + 1).trimmed();
        return {};
    }
};

// One HTTP/1.0 exchange; the target goes out exactly as given (no encoding).
inline HttpReply rawGet(int port, const QByteArray& target, const QByteArray& extraHeaders = {},
                        const QByteArray& host = "127.0.0.1")
{
    HttpReply reply;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(quint16(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval timeout{30, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return reply;
    }
    const QByteArray request = "GET " + target + " HTTP/1.0\r\nHost: " + host + "\r\n" + extraHeaders + "\r\n";
    if (::write(fd, request.constData(), size_t(request.size())) == request.size()) {
        QByteArray all;
        char chunk[8192];
        ssize_t n;
        while ((n = ::read(fd, chunk, sizeof chunk)) > 0) all.append(chunk, n);
        const qsizetype split = all.indexOf("\r\n\r\n");
        reply.head = all.left(split);
        reply.body = split < 0 ? QByteArray() : all.mid(split + 4);
        const QList<QByteArray> status = reply.head.split(' ');
        if (status.size() > 1) reply.status = status[1].toInt();
    }
    ::close(fd);
    return reply;
}

// A free TCP port on loopback (bound and released: the usual small race).
inline int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

}  // namespace maptune::test
