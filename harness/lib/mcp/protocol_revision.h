#pragma once
// The two eras of MCP the server speaks (the specification's "dual-era" server):
//  - legacy revisions (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05): an `initialize` handshake opens a
//    session for the process;
//  - modern revisions (2026-07-28): no handshake; every request carries its revision and the client's
//    capabilities in `_meta` (io.modelcontextprotocol/protocolVersion, .../clientCapabilities),
//    `server/discover` says what the server speaks, and every result carries `resultType` (list and read
//    results also the caching hints `ttlMs` and `cacheScope`).
// What both eras share (capabilities, identity, instructions) is built here once.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace portcheck::mcp {

inline constexpr const char* kLatestLegacyProtocol = "2025-11-25";
inline constexpr const char* kLatestModernProtocol = "2026-07-28";
inline constexpr const char* kProtocolVersionKey = "io.modelcontextprotocol/protocolVersion";

// Newest first. Every revision the server answers, modern then legacy (server/discover's supportedVersions
// and the `supported` list of an UnsupportedProtocolVersion error).
const std::vector<std::string>& legacyProtocols();
const std::vector<std::string>& modernProtocols();
std::vector<std::string> supportedProtocols();

// The revision a request names in its `_meta`, nullopt for a request of a legacy session (no such key).
// A key that is there but not a string names the empty revision, which no era supports.
std::optional<std::string> requestedRevision(const nlohmann::json& params);
bool isModern(const std::string& revision);

nlohmann::json serverCapabilities();
nlohmann::json serverInfo();
std::string serverInstructions();

// The server/discover result.
nlohmann::json discoverResult();
// `result` as a modern revision answers it: resultType, the server's identity in `_meta`, and for the
// results the specification makes cacheable (lists, resources/read, server/discover) ttlMs and cacheScope.
nlohmann::json modernResult(nlohmann::json result, bool cacheable);
// The data of the UnsupportedProtocolVersion error (-32022) for a request that asked for `requested`.
nlohmann::json unsupportedRevisionData(const std::string& requested);

}  // namespace portcheck::mcp
