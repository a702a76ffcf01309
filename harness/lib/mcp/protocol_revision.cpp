#include "mcp/protocol_revision.h"

#include <algorithm>

namespace portcheck::mcp {

namespace {

using nlohmann::json;

// The tool list, the resources and the server's identity are fixed for the life of the binary, and hold
// nothing of a user's: any cache may keep them for an hour.
constexpr long long kCacheMilliseconds = 3600 * 1000;

}  // namespace

const std::vector<std::string>& legacyProtocols() {
  static const std::vector<std::string> v = {kLatestLegacyProtocol, "2025-06-18", "2025-03-26", "2024-11-05"};
  return v;
}

const std::vector<std::string>& modernProtocols() {
  static const std::vector<std::string> v = {kLatestModernProtocol};
  return v;
}

std::vector<std::string> supportedProtocols() {
  std::vector<std::string> all = modernProtocols();
  all.insert(all.end(), legacyProtocols().begin(), legacyProtocols().end());
  return all;
}

std::optional<std::string> requestedRevision(const json& params) {
  if (!params.is_object() || !params.contains("_meta") || !params["_meta"].is_object()) return std::nullopt;
  const json& meta = params["_meta"];
  if (!meta.contains(kProtocolVersionKey)) return std::nullopt;
  return meta[kProtocolVersionKey].is_string() ? meta[kProtocolVersionKey].get<std::string>() : std::string();
}

bool isModern(const std::string& revision) {
  return std::find(modernProtocols().begin(), modernProtocols().end(), revision) != modernProtocols().end();
}

json serverCapabilities() {
  return {{"tools", {{"listChanged", false}}}, {"resources", {{"subscribe", false}, {"listChanged", false}}}};
}

json serverInfo() { return {{"name", "port-check"}, {"title", "port-check"}, {"version", PORTCHECK_VERSION}}; }

std::string serverInstructions() {
  return "port-check checks PyPTO ports (projects/<name>/pypto_src): lint in milliseconds, compile with the real "
         "compiler, run the golden on the simulator. Call check after each change; explain_rule (or the resource "
         "port-check://rules/<ID>) says how to fix a finding. Paths are relative to the workspace the server serves; "
         "a path outside it is refused.";
}

json discoverResult() {
  return modernResult({{"supportedVersions", supportedProtocols()},
                       {"capabilities", serverCapabilities()},
                       {"instructions", serverInstructions()}},
                      true);
}

json modernResult(json result, bool cacheable) {
  result["resultType"] = "complete";
  if (!result.contains("_meta") || !result["_meta"].is_object()) result["_meta"] = json::object();
  result["_meta"]["io.modelcontextprotocol/serverInfo"] = serverInfo();
  if (cacheable) {
    result["ttlMs"] = kCacheMilliseconds;
    result["cacheScope"] = "public";
  }
  return result;
}

json unsupportedRevisionData(const std::string& requested) {
  return {{"supported", supportedProtocols()}, {"requested", requested}};
}

}  // namespace portcheck::mcp
