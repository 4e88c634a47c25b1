#pragma once
// What the parser took the tokens of one file for: a keyword, a keyword that
// opens a block (ended by END), an enumerated value, or text kept verbatim in
// the model (blocks we accept without interpreting, such as LEADER, whose
// words must keep their case, and their nested blocks). The formatter uses it
// to change case and indentation with the parser's own knowledge of the
// language instead of a second copy of it.

#include "mapfile/map_lexer.h"

#include <QHash>
#include <QString>

#include <optional>

namespace maptune {

enum class TokenRole { Keyword, BlockOpen, EnumValue, Verbatim, VerbatimBlockOpen };

inline bool opensBlock(TokenRole r) { return r == TokenRole::BlockOpen || r == TokenRole::VerbatimBlockOpen; }
inline bool keepsCase(TokenRole r) { return r == TokenRole::Verbatim || r == TokenRole::VerbatimBlockOpen; }

class TokenRoles {
public:
    explicit TokenRoles(QString file) : m_file(std::move(file)) {}

    // Tokens of other files (INCLUDEs, the SYMBOLSET) are not this file's.
    void mark(const Token& token, TokenRole role)
    {
        if (token.pos.file == m_file) m_roles.insert(key(token.pos), role);
    }
    std::optional<TokenRole> role(const SourcePos& pos) const
    {
        const auto it = m_roles.constFind(key(pos));
        if (it == m_roles.constEnd()) return std::nullopt;
        return *it;
    }

private:
    static quint64 key(const SourcePos& pos) { return (quint64(quint32(pos.line)) << 32) | quint32(pos.column); }

    QString m_file;
    QHash<quint64, TokenRole> m_roles;
};

}  // namespace maptune
