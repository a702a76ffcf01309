#include "mcp/portable_schema.h"

#include <string_view>

namespace portcheck::mcp {

namespace {

using nlohmann::json;

// Keywords whose values are instances, not subschemas: never rewritten, never searched.
bool holdsInstances(std::string_view key) {
  return key == "enum" || key == "const" || key == "default" || key == "examples";
}

// Rewrites every "$ref" of `node` that starts with `from` to start with `to` instead.
void rewriteReferences(json& node, const std::string& from, const std::string& to) {
  if (node.is_array()) {
    for (json& item : node) rewriteReferences(item, from, to);
    return;
  }
  if (!node.is_object()) return;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (it.key() == "$ref" && it.value().is_string()) {
      std::string ref = it.value();
      if (ref.rfind(from, 0) == 0) it.value() = to + ref.substr(from.size());
    } else if (!holdsInstances(it.key())) {
      rewriteReferences(it.value(), from, to);
    }
  }
}

void collectReferences(const json& node, std::vector<std::string>& refs) {
  if (node.is_array())
    for (const json& item : node) collectReferences(item, refs);
  if (!node.is_object()) return;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (it.key() == "$ref" && it.value().is_string()) refs.push_back(it.value());
    else if (!holdsInstances(it.key())) collectReferences(it.value(), refs);
  }
}

json typeBranches(const json& types) {
  json branches = json::array();
  for (const json& t : types) branches.push_back({{"type", t}});
  return branches;
}

}  // namespace

json portableSchema(json schema) {
  if (schema.is_array()) {
    for (json& item : schema) item = portableSchema(std::move(item));
    return schema;
  }
  if (!schema.is_object()) return schema;
  for (auto it = schema.begin(); it != schema.end(); ++it)
    if (!holdsInstances(it.key())) it.value() = portableSchema(std::move(it.value()));
  if (!schema.contains("type") || !schema["type"].is_array()) return schema;
  json types = std::move(schema["type"]);
  schema.erase("type");
  if (types.size() == 1) {
    schema["type"] = types[0];
  } else if (!schema.contains("anyOf")) {
    schema["anyOf"] = typeBranches(types);
  } else {  // an anyOf of its own already: both must hold
    if (!schema.contains("allOf")) schema["allOf"] = json::array();
    schema["allOf"].push_back({{"anyOf", typeBranches(types)}});
  }
  return schema;
}

bool hasTypeArray(const json& schema) {
  if (schema.is_array()) {
    for (const json& item : schema)
      if (hasTypeArray(item)) return true;
    return false;
  }
  if (!schema.is_object()) return false;
  if (schema.contains("type") && schema["type"].is_array()) return true;
  for (auto it = schema.begin(); it != schema.end(); ++it)
    if (!holdsInstances(it.key()) && hasTypeArray(it.value())) return true;
  return false;
}

json bundleReferences(json schema, const std::string& file, const json& target) {
  std::vector<std::string> refs;
  collectReferences(schema, refs);
  bool used = false;
  for (const std::string& r : refs) used = used || r.rfind(file + "#", 0) == 0;
  if (!used) return schema;
  const std::string home = "#/definitions/" + file;  // a file name holds no '/' or '~' to escape
  json copy = target;
  copy.erase("$schema");
  copy.erase("$id");
  rewriteReferences(copy, "#/", home + "/");
  rewriteReferences(schema, file + "#/", home + "/");
  schema["definitions"][file] = std::move(copy);
  return schema;
}

std::vector<std::string> unresolvedReferences(const json& schema) {
  std::vector<std::string> refs, unresolved;
  collectReferences(schema, refs);
  for (const std::string& r : refs) {
    bool ok = r == "#" || r.rfind("#/", 0) == 0;
    if (ok) {
      try {
        ok = schema.contains(json::json_pointer(r.substr(1)));
      } catch (const json::exception&) {
        ok = false;
      }
    }
    if (!ok) unresolved.push_back(r);
  }
  return unresolved;
}

}  // namespace portcheck::mcp
