#pragma once
// JSON-RPC 2.0 as MCP's stdio transport carries it: one message per line, UTF-8, no embedded
// newlines. Reading is bounded (a line over the limit is skipped and reported, never buffered whole);
// writing is serialised, so a worker thread's response never interleaves with another message.
#include <istream>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace portcheck::mcp {

// The error codes of JSON-RPC 2.0 and the ones MCP adds: resources (legacy revisions; 2026-07-28 uses
// kInvalidParams) and a revision the server does not speak (2026-07-28).
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kResourceNotFound = -32002,
  kUnsupportedProtocolVersion = -32022,
};

struct InputLine {
  std::string text;
  bool too_long = false;        // the line was longer than the limit (text is empty)
  std::size_t length = 0;       // its length in bytes
};

// The next line of `in` (without its newline), nullopt at the end of input.
std::optional<InputLine> readMessageLine(std::istream& in, std::size_t max_bytes);

class MessageWriter {
 public:
  explicit MessageWriter(std::ostream& out) : out_(out) {}
  void send(const nlohmann::json& message);
  void result(const nlohmann::json& id, nlohmann::json result);
  void error(const nlohmann::json& id, int code, const std::string& message, nlohmann::json data = nullptr);
  void notify(const std::string& method, nlohmann::json params);

 private:
  std::ostream& out_;
  std::mutex mutex_;
};

}  // namespace portcheck::mcp
