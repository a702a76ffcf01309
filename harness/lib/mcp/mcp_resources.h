#pragma once
// The resources `port-check mcp` serves, so an agent reads them without a file system: one per rule
// (port-check://rules/<ID>, its Markdown reference) and one per file of the skill pack built into the
// binary (port-check://skills/<skill>/SKILL.md and its references).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace portcheck::mcp {

// The resources/list result (every resource, no pagination: a few hundred entries).
nlohmann::json resourceList();
// The resources/templates/list result.
nlohmann::json resourceTemplates();
// The resources/read contents of `uri`, nullopt when there is no such resource.
std::optional<nlohmann::json> readResource(const std::string& uri);

}  // namespace portcheck::mcp
