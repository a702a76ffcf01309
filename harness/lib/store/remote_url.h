#pragma once
// The shared cache's remote store as configured ("cache.remote" in port-check.json, or
// PORTCHECK_CACHE_REMOTE): redis://HOST:PORT[/DB] or http://HOST:PORT/PATH/ (docs/shared-cache.md).
#include <optional>
#include <string>

namespace portcheck::store {

struct RemoteUrl {
  enum class Scheme { Redis, Http };
  Scheme scheme = Scheme::Redis;
  std::string host;
  int port = 0;
  int db = 0;            // redis: the database number (SELECT)
  std::string base;      // http: the URL up to and with the trailing '/', entries go below it
  enum class Layout { Subdirs, Bazel };
  Layout layout = Layout::Subdirs;  // http: `|layout=subdirs` (default) or `|layout=bazel`, as ccache spells it
  std::string display;   // the URL as given, for notes and stats
};

// Parses `text`; nullopt with `error` saying what is wrong (scheme, host, port, database number, an
// attribute after '|').
std::optional<RemoteUrl> parseRemoteUrl(const std::string& text, std::string& error);

}  // namespace portcheck::store
