#pragma once
// Builds the request bytes once; every connection sends the same buffer.

#include "common/result.h"
#include "http/url.h"

#include <string>
#include <vector>

namespace wb {

struct Header
{
    std::string name;
    std::string value;
    bool operator==(const Header&) const = default;
};

/// Parses "Name: value" as given to -H. Rejects empty names, names with
/// characters outside the HTTP token set, and CR/LF anywhere.
Result<Header> parseHeader(const std::string& text);

struct RequestSpec
{
    std::string method = "GET";
    Url url;
    std::vector<Header> headers; ///< user headers; they replace defaults of the same name
    std::string body;
};

/// Serialises one HTTP/1.1 request: request line, Host (unless given),
/// Content-Length when there is a body (unless given), the user headers, body.
std::string buildRequest(const RequestSpec& spec);

/// True when a response to this method has no body regardless of its headers.
inline bool methodHasNoResponseBody(const std::string& method)
{
    return method == "HEAD";
}

} // namespace wb
