#pragma once
// Connection strings in libpq's forms (key=value, postgresql:// URIs,
// service=...). Passwords never leave this process in text: every message,
// trace and pool key shown to a user goes through redactPgConnInfo().

#include <QString>

namespace maptune {

// "host=a password=secret dbname=b" -> "host=a password=*** dbname=b";
// also "postgresql://user:secret@host/db" and "?password=secret".
QString redactPgConnInfo(const QString& conninfo);

}  // namespace maptune
