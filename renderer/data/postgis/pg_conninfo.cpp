#include "data/postgis/pg_conninfo.h"

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

}  // namespace maptune
