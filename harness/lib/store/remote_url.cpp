#include "store/remote_url.h"

#include <charconv>

namespace portcheck::store {

namespace {

bool parseRemoteNumber(std::string_view text, int low, int high, int& out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= low && out <= high;
}

}  // namespace

std::optional<RemoteUrl> parseRemoteUrl(const std::string& given, std::string& error) {
  RemoteUrl u;
  u.display = given;
  // Attributes after '|' (ccache's remote_storage syntax): only an HTTP store's layout.
  const std::size_t bar = given.find('|');
  const std::string text = given.substr(0, bar);
  for (std::size_t at = bar; at != std::string::npos;) {
    const std::size_t next = given.find('|', at + 1);
    const std::string attribute = given.substr(at + 1, next == std::string::npos ? next : next - at - 1);
    if (!text.starts_with("http://")) {
      error = "'" + given + "': attributes after '|' are for an http:// store";
      return std::nullopt;
    }
    if (attribute == "layout=bazel") {
      u.layout = RemoteUrl::Layout::Bazel;
    } else if (attribute == "layout=subdirs") {
      u.layout = RemoteUrl::Layout::Subdirs;
    } else {
      error = "'" + given + "': unknown attribute '" + attribute + "' (layout=subdirs or layout=bazel)";
      return std::nullopt;
    }
    at = next;
  }
  std::string_view rest;
  if (text.starts_with("redis://")) {
    u.scheme = RemoteUrl::Scheme::Redis;
    rest = std::string_view(text).substr(8);
  } else if (text.starts_with("http://")) {
    u.scheme = RemoteUrl::Scheme::Http;
    rest = std::string_view(text).substr(7);
  } else {
    error = "'" + text + "' is neither redis://HOST:PORT[/DB] nor http://HOST:PORT/PATH/[|layout=bazel]";
    return std::nullopt;
  }
  std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  std::size_t colon = authority.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    error = "'" + text + "' needs HOST:PORT";
    return std::nullopt;
  }
  u.host = std::string(authority.substr(0, colon));
  if (u.host.find('@') != std::string::npos) {
    error = "'" + text + "': credentials in the URL are not supported";
    return std::nullopt;
  }
  if (!parseRemoteNumber(authority.substr(colon + 1), 1, 65535, u.port)) {
    error = "'" + text + "': the port must be a number in 1..65535";
    return std::nullopt;
  }
  if (u.scheme == RemoteUrl::Scheme::Redis) {
    if (path.size() > 1 && !parseRemoteNumber(path.substr(1), 0, 1000000, u.db)) {
      error = "'" + text + "': the database after '/' must be a whole number";
      return std::nullopt;
    }
    return u;
  }
  std::string p(path.empty() ? "/" : path);
  if (p.find_first_of("?#") != std::string::npos) {
    error = "'" + text + "': a query or fragment is not supported";
    return std::nullopt;
  }
  if (p.back() != '/') p += '/';
  u.base = "http://" + std::string(authority) + p;
  return u;
}

}  // namespace portcheck::store
