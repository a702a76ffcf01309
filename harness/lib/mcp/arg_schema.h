#pragma once
// Checks a tool call's arguments against the tool's input schema: the JSON Schema subset the tools
// declare (type, properties, required, additionalProperties: false, enum, items, minItems, minimum,
// maximum). The first violation is returned with the schema path that failed, e.g.
// "/properties/paths/items/type: arguments.paths[1] is a number, expected a string".
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace portcheck::mcp {

std::optional<std::string> schemaViolation(const nlohmann::json& schema, const nlohmann::json& value);

}  // namespace portcheck::mcp
