#pragma once
// A value or the error that stopped it. What the engine's modules return across
// their boundaries, in place of a QString* out-parameter or an optional<QString>
// that meant "the error" in one place and "the value" in the next.

#include "core/source_pos.h"

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace maptune {

// What went wrong, and where when it is about a place in a mapfile.
struct Error {
    QString message;
    SourcePos where;  // line 0: not about a place in a file

    Error() = default;
    explicit Error(QString text, SourcePos at = {}) : message(std::move(text)), where(std::move(at)) {}

    bool hasPlace() const { return where.line > 0; }
    // "FILE:LINE:COL: message" when the place is known, else the message.
    QString toString() const
    {
        if (!hasPlace()) return message;
        return QStringLiteral("%1:%2:%3: %4").arg(where.file).arg(where.line).arg(where.column).arg(message);
    }
    // The same error, its message led by `context` ("layer 'roads': ...").
    Error prefixed(const QString& context) const { return Error(context + message, where); }
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_state(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit on purpose
    Result(Error error) : m_state(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit on purpose

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(m_state); }
    const T& value() const& { return std::get<0>(m_state); }
    T&& value() && { return std::get<0>(std::move(m_state)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T&& operator*() && { return std::move(*this).value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T valueOr(T fallback) const& { return ok() ? value() : std::move(fallback); }
    T valueOr(T fallback) && { return ok() ? std::move(*this).value() : std::move(fallback); }

    const Error& error() const { return std::get<1>(m_state); }
    // The error's message; empty when there is a value.
    QString message() const { return ok() ? QString() : error().message; }
    // For callers still on a QString* out-parameter: ok(), else the message into *error.
    bool ok(QString* error) const
    {
        if (!ok() && error) *error = message();
        return ok();
    }

    std::optional<T> toOptional() && { return ok() ? std::optional<T>(std::move(*this).value()) : std::nullopt; }

private:
    std::variant<T, Error> m_state;
};

// Success with nothing to return, or the error.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)) {}  // NOLINT: implicit on purpose

    bool ok() const { return !m_error; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *m_error; }
    QString message() const { return ok() ? QString() : m_error->message; }
    bool ok(QString* error) const
    {
        if (!ok() && error) *error = message();
        return ok();
    }

private:
    std::optional<Error> m_error;
};

using Status = Result<void>;

}  // namespace maptune
