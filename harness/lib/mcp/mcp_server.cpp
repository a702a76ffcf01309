#include "mcp/mcp_server.h"

#include <algorithm>
#include <cctype>
#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "mcp/arg_schema.h"
#include "mcp/json_rpc.h"
#include "mcp/mcp_resources.h"
#include "mcp/mcp_tools.h"
#include "mcp/protocol_revision.h"

namespace portcheck::mcp {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// file:///a/b%20c -> /a/b c; nullopt for anything but a local file URI.
std::optional<fs::path> pathOfFileUri(const std::string& uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.rfind(kScheme, 0) != 0) return std::nullopt;
  std::string rest = uri.substr(kScheme.size());
  if (rest.rfind("localhost/", 0) == 0) rest = rest.substr(9);
  if (rest.empty() || rest[0] != '/') return std::nullopt;
  std::string path;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && std::isxdigit(static_cast<unsigned char>(rest[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(rest[i + 2]))) {
      path.push_back(static_cast<char>(std::stoi(rest.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      path.push_back(rest[i]);
    }
  }
  return fs::path(path);
}

bool validId(const json& id) { return id.is_string() || id.is_number_integer(); }

class Session {
 public:
  Session(std::ostream& out, std::ostream& log, const ServerOptions& options)
      : writer_(out), log_(log), options_(options), roots_(options.roots) {}

  // The input ended: calls still running finish and answer (the client may still read); a client
  // that wants them stopped cancels them, or ends the server with SIGTERM (cancelAll).
  ~Session() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      roots_pending_ = false;
    }
    roots_ready_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  void cancelAll() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [id, flag] : in_flight_) *flag = true;
  }

  void handleLine(const InputLine& line) {
    if (line.too_long) {
      writer_.error(nullptr, kInvalidRequest,
                    "message of " + std::to_string(line.length) + " bytes is over the limit of " +
                        std::to_string(options_.max_message) + " bytes; it was skipped");
      return;
    }
    if (line.text.find_first_not_of(" \t\r") == std::string::npos) return;
    json msg = json::parse(line.text, nullptr, false);
    if (msg.is_discarded()) {
      writer_.error(nullptr, kParseError, "Parse error: the message is not valid JSON");
      return;
    }
    if (msg.is_array()) {
      writer_.error(nullptr, kInvalidRequest, "JSON-RPC batches are not supported (MCP removed them in 2025-06-18)");
      return;
    }
    json id = msg.is_object() && msg.contains("id") ? msg["id"] : json(nullptr);
    if (!msg.is_object() || msg.value("jsonrpc", json()) != "2.0") {
      writer_.error(validId(id) ? id : json(nullptr), kInvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    if (msg.contains("method")) {
      if (!msg["method"].is_string()) {
        writer_.error(validId(id) ? id : json(nullptr), kInvalidRequest, "Invalid Request: method is not a string");
        return;
      }
      json params = msg.value("params", json::object());
      if (!msg.contains("id")) return notification(msg["method"], params);
      if (!validId(id)) {
        writer_.error(nullptr, kInvalidRequest, "Invalid Request: id must be a string or an integer");
        return;
      }
      if (!params.is_object()) {
        writer_.error(id, kInvalidParams, "Invalid params: params must be an object");
        return;
      }
      return request(msg["method"], id, params);
    }
    if (msg.contains("result") || msg.contains("error")) return response(id, msg);
    writer_.error(validId(id) ? id : json(nullptr), kInvalidRequest, "Invalid Request: neither a request, a notification nor a response");
  }

 private:
  MessageWriter writer_;
  std::ostream& log_;
  const ServerOptions& options_;
  std::mutex mutex_;
  std::condition_variable roots_ready_;
  std::vector<fs::path> roots_;
  bool roots_pending_ = false;
  bool client_roots_ = false;
  bool initialized_ = false;
  int next_request_ = 0;
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> in_flight_;  // request id (dumped) -> cancel flag
  std::vector<std::thread> workers_;

  // A request naming its revision in _meta is a modern one (2026-07-28): served on its own, without a
  // session; server/discover is always one. Anything else belongs to the session `initialize` opened.
  void request(const std::string& method, const json& id, const json& params) {
    if (method == "initialize") return initialize(id, params);
    std::optional<std::string> revision = requestedRevision(params);
    if (method == "server/discover" && !revision) revision = kLatestModernProtocol;
    if (revision) {
      if (!isModern(*revision)) {
        writer_.error(id, kUnsupportedProtocolVersion, "Unsupported protocol version", unsupportedRevisionData(*revision));
        return;
      }
      if (method == "server/discover") return writer_.result(id, discoverResult());
      return serve(method, id, params, true);
    }
    if (method == "ping") return writer_.result(id, json::object());
    if (!initialized_) {
      writer_.error(id, kInvalidRequest,
                    "the session is not initialized: send initialize first, or name the revision in "
                    "_meta[\"io.modelcontextprotocol/protocolVersion\"] (2026-07-28)");
      return;
    }
    serve(method, id, params, false);
  }

  void reply(const json& id, json result, bool modern, bool cacheable) {
    writer_.result(id, modern ? modernResult(std::move(result), cacheable) : std::move(result));
  }

  void serve(const std::string& method, const json& id, const json& params, bool modern) {
    if (method == "ping") return reply(id, json::object(), modern, false);
    if (method == "tools/list") {
      json list = json::array();
      for (const Tool& t : tools()) list.push_back(t.descriptor());
      return reply(id, {{"tools", list}}, modern, true);
    }
    if (method == "tools/call") return callTool(id, params, modern);
    if (method == "resources/list") return reply(id, resourceList(), modern, true);
    if (method == "resources/templates/list") return reply(id, resourceTemplates(), modern, true);
    if (method == "resources/read") {
      if (!params.contains("uri") || !params["uri"].is_string()) {
        writer_.error(id, kInvalidParams, "Invalid params: resources/read needs a uri string");
        return;
      }
      if (auto r = readResource(params["uri"])) return reply(id, *r, modern, true);
      // 2026-07-28 moved "resource not found" to Invalid Params.
      writer_.error(id, modern ? kInvalidParams : kResourceNotFound, "Resource not found", {{"uri", params["uri"]}});
      return;
    }
    writer_.error(id, kMethodNotFound, "Method not found: " + method);
  }

  void initialize(const json& id, const json& params) {
    std::string asked = params.value("protocolVersion", std::string());
    const auto& known = legacyProtocols();
    std::string version = std::find(known.begin(), known.end(), asked) != known.end() ? asked : kLatestLegacyProtocol;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      client_roots_ = params.contains("capabilities") && params["capabilities"].is_object() &&
                      params["capabilities"].contains("roots");
      initialized_ = true;
    }
    writer_.result(id, {{"protocolVersion", version},
                        {"capabilities", serverCapabilities()},
                        {"serverInfo", serverInfo()},
                        {"instructions", serverInstructions()}});
  }

  void notification(const std::string& method, const json& params) {
    if (method == "notifications/initialized" || method == "notifications/roots/list_changed") {
      if (client_roots_) askForRoots();
      return;
    }
    if (method == "notifications/cancelled") {
      if (!params.is_object() || !params.contains("requestId")) return;
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = in_flight_.find(params["requestId"].dump()); it != in_flight_.end()) *it->second = true;
      return;
    }
    // Other notifications (progress of client requests, logging) need nothing from this server.
  }

  void askForRoots() {
    std::string id;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      roots_pending_ = true;
      id = "port-check-roots-" + std::to_string(++next_request_);
    }
    writer_.send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "roots/list"}});
  }

  void response(const json& id, const json& msg) {
    if (!id.is_string() || id.get<std::string>().rfind("port-check-roots-", 0) != 0) return;  // not ours
    std::vector<fs::path> roots;
    if (msg.contains("result") && msg["result"].is_object() && msg["result"].contains("roots") && msg["result"]["roots"].is_array())
      for (const json& r : msg["result"]["roots"])
        if (r.is_object() && r.contains("uri") && r["uri"].is_string()) {
          if (auto p = pathOfFileUri(r["uri"])) roots.push_back(*p);
          else log_ << "port-check mcp: ignored the root " << r["uri"].get<std::string>() << " (not a file:// URI)\n";
        }
    if (msg.contains("error")) log_ << "port-check mcp: the client could not list its roots: " << msg["error"].dump() << "\n";
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!roots.empty()) roots_ = std::move(roots);
      roots_pending_ = false;
    }
    roots_ready_.notify_all();
  }

  // The roots a call may touch: the client's once it answered roots/list (waits a little for the answer).
  // A modern request has no session, hence no client roots: the server's own.
  std::vector<fs::path> currentRoots(bool modern) {
    if (modern) return options_.roots;
    std::unique_lock<std::mutex> lock(mutex_);
    roots_ready_.wait_for(lock, std::chrono::seconds(10), [&] { return !roots_pending_; });
    return roots_;
  }

  void callTool(const json& id, const json& params, bool modern) {
    if (!params.contains("name") || !params["name"].is_string()) {
      writer_.error(id, kInvalidParams, "Invalid params: tools/call needs a tool name");
      return;
    }
    const Tool* tool = findTool(params["name"]);
    if (!tool) {
      writer_.error(id, kInvalidParams, "Unknown tool: " + params["name"].get<std::string>());
      return;
    }
    json arguments = params.value("arguments", json::object());
    if (!arguments.is_object()) {
      writer_.error(id, kInvalidParams, "Invalid params: arguments must be an object");
      return;
    }
    // An argument that breaks the schema is a tool execution error (the 2025-11-25 revision), so the
    // model reads which part of its call to fix.
    if (auto violation = schemaViolation(tool->input_schema, arguments)) {
      reply(id, toolError("invalid arguments for " + tool->name + ": " + *violation), modern, false);
      return;
    }
    json token = params.contains("_meta") && params["_meta"].is_object() ? params["_meta"].value("progressToken", json())
                                                                         : json();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    std::lock_guard<std::mutex> lock(mutex_);
    in_flight_[id.dump()] = cancel;
    workers_.emplace_back(
        [this, tool, id, arguments, token, cancel, modern] { runTool(*tool, id, arguments, token, cancel, modern); });
  }

  void runTool(const Tool& tool, const json& id, const json& arguments, const json& token,
               const std::shared_ptr<std::atomic<bool>>& cancel, bool modern) {
    ToolContext ctx;
    ctx.options = options_.base;
    ctx.options.cancel = cancel.get();
    ctx.roots = currentRoots(modern);
    auto step = std::make_shared<int>(0);
    if (validId(token)) {
      ctx.options.progress = [this, token, step](const std::string& message) {
        writer_.notify("notifications/progress", {{"progressToken", token}, {"progress", ++*step}, {"message", message}});
      };
      ctx.options.progress("started " + tool.name);
    }
    json result;
    try {
      result = tool.call(arguments, ctx);
    } catch (const std::exception& e) {
      result = toolError("port-check: internal error in " + tool.name + ": " + e.what());
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      in_flight_.erase(id.dump());
    }
    if (cancel->load()) return;  // a cancelled request gets no response
    reply(id, std::move(result), modern, false);
  }
};

}  // namespace

int serve(std::istream& in, std::ostream& out, std::ostream& log, const ServerOptions& options) {
  ServerOptions effective = options;
  if (effective.roots.empty()) effective.roots.push_back(options.base.cwd);
  Session session(out, log, effective);
  // A stop request (SIGTERM / SIGINT through options.stop) cancels every running call, which kills the
  // compilers and simulators they started.
  std::atomic<bool> done{false};
  std::thread watcher;
  if (options.stop)
    watcher = std::thread([&] {
      while (!done.load()) {
        if (options.stop->load()) session.cancelAll();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  while (!(options.stop && options.stop->load())) {
    std::optional<InputLine> line = readMessageLine(in, effective.max_message);
    if (!line) break;
    session.handleLine(*line);
  }
  if (options.stop && options.stop->load()) session.cancelAll();
  done = true;
  if (watcher.joinable()) watcher.join();
  return 0;
}

}  // namespace portcheck::mcp
