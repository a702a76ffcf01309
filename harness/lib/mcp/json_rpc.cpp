#include "mcp/json_rpc.h"

namespace portcheck::mcp {

std::optional<InputLine> readMessageLine(std::istream& in, std::size_t max_bytes) {
  InputLine line;
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (;;) {
    int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      if (!any) return std::nullopt;
      break;
    }
    any = true;
    if (c == '\n') break;
    ++line.length;
    if (line.length > max_bytes) {
      if (!line.too_long) {
        line.too_long = true;
        line.text.clear();
        line.text.shrink_to_fit();
      }
      continue;
    }
    line.text.push_back(static_cast<char>(c));
  }
  if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
  return line;
}

void MessageWriter::send(const nlohmann::json& message) {
  // Invalid UTF-8 in a message (a compiler log excerpt) is replaced, never thrown on.
  std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard<std::mutex> lock(mutex_);
  out_ << text << '\n';
  out_.flush();
}

void MessageWriter::result(const nlohmann::json& id, nlohmann::json result) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void MessageWriter::error(const nlohmann::json& id, int code, const std::string& message, nlohmann::json data) {
  nlohmann::json e = {{"code", code}, {"message", message}};
  if (!data.is_null()) e["data"] = std::move(data);
  // An error whose request id is unknown (a parse error) carries no id: MCP's schema makes it optional
  // and, unlike bare JSON-RPC 2.0, does not allow null.
  nlohmann::json reply = {{"jsonrpc", "2.0"}, {"error", std::move(e)}};
  if (!id.is_null()) reply["id"] = id;
  send(reply);
}

void MessageWriter::notify(const std::string& method, nlohmann::json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

}  // namespace portcheck::mcp
