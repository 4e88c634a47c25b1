#pragma once
// Connection strings in libpq's forms (key=value, postgresql:// URIs,
// service=...). Passwords never leave this process in text: every message,
// trace and pool key shown to a user goes through redactPgConnInfo().

#include <QString>

namespace maptune {

// "host=a password=secret dbname=b" -> "host=a password=*** dbname=b";
// also "postgresql://user:secret@host/db" and "?password=secret".
QString redactPgConnInfo(const QString& conninfo);

// What identifies a connection for pooling: every setting libpq reads from
// the string (PQconninfoParse), in libpq's order, values exactly as given --
// user and password keep their case, so connections are never shared between
// different credentials. Spelling and order of the string do not matter
// ("host=a  user=b" and "user=b host=a" are one key). A string libpq cannot
// parse is its own key. Holds the password: never print it.
QString pgConnInfoKey(const QString& conninfo);

// Whether the server runs on this machine: every host (or hostaddr) a Unix
// socket directory or a loopback name or address; no host at all is libpq's
// default socket (or PGHOST). A string libpq cannot parse is not local.
bool pgConnInfoIsLocal(const QString& conninfo);

}  // namespace maptune
