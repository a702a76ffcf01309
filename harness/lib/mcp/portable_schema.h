#pragma once
// Output schemas as every MCP client reads them. JSON Schema allows `"type": ["string", "null"]`, but
// several MCP clients read `type` as one string and reject the tool or drop the constraint (MCP Inspector
// warns on each). The same constraint spelt portably is `"anyOf": [{"type": "string"}, {"type": "null"}]`:
// every other keyword stays where it was, so the schema accepts exactly the documents it accepted.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace portcheck::mcp {

// `schema` with every array-valued `type` rewritten as an anyOf of single types.
nlohmann::json portableSchema(nlohmann::json schema);

// Whether some subschema of `schema` still spells its type as an array.
bool hasTypeArray(const nlohmann::json& schema);

// `schema` with its references into the schema file `file` ("port-check-report.schema.json#/definitions/x")
// pointed at a copy of `target` (that file's schema) under its definitions: a client resolves every
// $ref inside the one schema it was given, and fetches nothing.
nlohmann::json bundleReferences(nlohmann::json schema, const std::string& file, const nlohmann::json& target);

// Every $ref of `schema` that is not a JSON pointer into `schema` itself ("#/...") that resolves.
std::vector<std::string> unresolvedReferences(const nlohmann::json& schema);

}  // namespace portcheck::mcp
