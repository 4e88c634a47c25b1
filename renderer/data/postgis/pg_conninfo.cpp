#include "data/postgis/pg_conninfo.h"

#include <libpq-fe.h>

#include <QRegularExpression>

namespace maptune {

QString redactPgConnInfo(const QString& conninfo)
{
    static const QRegularExpression keyValue(
        QStringLiteral(R"((\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S+))"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression uriUser(
        QStringLiteral(R"((postgres(?:ql)?://[^:/@?]*:)([^@]*)(@))"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression uriParam(
        QStringLiteral(R"(([?&]password=)[^&]*)"), QRegularExpression::CaseInsensitiveOption);
    QString out = conninfo;
    out.replace(uriUser, QStringLiteral("\\1***\\3"));
    out.replace(uriParam, QStringLiteral("\\1***"));
    out.replace(keyValue, QStringLiteral("\\1***"));
    return out;
}

QString pgConnInfoKey(const QString& conninfo)
{
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(conninfo.toUtf8().constData(), &error);
    if (!options) {
        PQfreemem(error);
        return QStringLiteral("unparsed\n") + conninfo;
    }
    QString key;
    for (const PQconninfoOption* o = options; o->keyword; ++o) {
        if (!o->val) continue;
        key += QString::fromUtf8(o->keyword) + QLatin1Char('=') + QString::fromUtf8(o->val) + QLatin1Char('\n');
    }
    PQconninfoFree(options);
    return key;
}

bool pgConnInfoIsLocal(const QString& conninfo)
{
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(conninfo.toUtf8().constData(), &error);
    if (!options) {
        PQfreemem(error);
        return false;
    }
    QString hosts;
    for (const PQconninfoOption* o = options; o->keyword; ++o) {
        const QByteArray keyword(o->keyword);
        // hostaddr, when given, is where libpq connects; host only names it.
        if (o->val && *o->val && (keyword == "hostaddr" || (keyword == "host" && hosts.isEmpty())))
            hosts = QString::fromUtf8(o->val);
    }
    PQconninfoFree(options);
    if (hosts.isEmpty()) hosts = qEnvironmentVariable("PGHOST");
    if (hosts.isEmpty()) return true;
    for (const QString& host : hosts.split(QLatin1Char(','))) {
        const QString h = host.trimmed();
        const bool local = h.isEmpty() || h.startsWith(QLatin1Char('/')) || h.startsWith(QLatin1Char('@'))
                           || h.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
                           || h.startsWith(QLatin1String("127.")) || h == QLatin1String("::1");
        if (!local) return false;
    }
    return true;
}

}  // namespace maptune
