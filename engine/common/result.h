#pragma once
// A value or a human-readable error message. Setup code (URL parsing, DNS, TLS
// context, option parsing) returns this instead of throwing, so callers can show
// the message as it is. std::expected arrives with C++23; this is the small
// subset the engine needs.

#include <string>
#include <utility>
#include <variant>

namespace wb {

struct Error
{
    std::string message;
};

template<typename T> class Result
{
public:
    Result(T value)
        : m_v(std::move(value))
    { }
    Result(Error error)
        : m_v(std::move(error))
    { }

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_v); }
    const T& value() const { return std::get<0>(m_v); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const std::string& error() const { return std::get<1>(m_v).message; }

private:
    std::variant<T, Error> m_v;
};

/// Result of an operation that yields nothing but may fail.
class Status
{
public:
    Status() = default;
    Status(Error error)
        : m_error(std::move(error.message))
        , m_failed(true)
    { }
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const std::string& error() const { return m_error; }

private:
    std::string m_error;
    bool m_failed = false;
};

} // namespace wb
