#include "mcp/arg_schema.h"

namespace portcheck::mcp {

namespace {

using nlohmann::json;

std::string kindOf(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "a value";
  }
}

std::string article(const std::string& type) {
  return (type == "integer" || type == "array" || type == "object" ? "an " : "a ") + type;
}

bool hasType(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "integer") return v.is_number_integer() || (v.is_number_float() && v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())));
  if (type == "number") return v.is_number();
  if (type == "null") return v.is_null();
  return true;
}

std::optional<std::string> check(const json& schema, const json& v, const std::string& spath, const std::string& vpath) {
  auto fail = [&](const std::string& key, const std::string& what) -> std::optional<std::string> {
    return spath + "/" + key + ": " + vpath + " " + what;
  };
  if (!schema.is_object()) return std::nullopt;
  if (auto t = schema.find("type"); t != schema.end() && t->is_string() && !hasType(v, *t))
    return fail("type", "is " + kindOf(v) + ", expected " + article(t->get<std::string>()));
  if (auto e = schema.find("enum"); e != schema.end() && e->is_array()) {
    bool found = false;
    for (const json& option : *e) found = found || option == v;
    if (!found) return fail("enum", "is " + v.dump() + ", expected one of " + e->dump());
  }
  if (v.is_number()) {
    if (auto m = schema.find("minimum"); m != schema.end() && m->is_number() && v.get<double>() < m->get<double>())
      return fail("minimum", "is " + v.dump() + ", below the minimum " + m->dump());
    if (auto m = schema.find("maximum"); m != schema.end() && m->is_number() && v.get<double>() > m->get<double>())
      return fail("maximum", "is " + v.dump() + ", above the maximum " + m->dump());
  }
  if (v.is_string())
    if (auto m = schema.find("minLength"); m != schema.end() && m->is_number_integer() && v.get<std::string>().size() < m->get<std::size_t>())
      return fail("minLength", "is shorter than " + m->dump() + " characters");
  if (v.is_array()) {
    if (auto m = schema.find("minItems"); m != schema.end() && m->is_number_integer() && v.size() < m->get<std::size_t>())
      return fail("minItems", "has " + std::to_string(v.size()) + " items, expected at least " + m->dump());
    if (auto items = schema.find("items"); items != schema.end())
      for (std::size_t i = 0; i < v.size(); ++i)
        if (auto bad = check(*items, v[i], spath + "/items", vpath + "[" + std::to_string(i) + "]")) return bad;
  }
  if (v.is_object()) {
    const json empty = json::object();
    auto props = schema.find("properties");
    const json& properties = props != schema.end() && props->is_object() ? *props : empty;
    if (auto req = schema.find("required"); req != schema.end() && req->is_array())
      for (const json& name : *req)
        if (name.is_string() && !v.contains(name.get<std::string>()))
          return fail("required", "has no \"" + name.get<std::string>() + "\"");
    auto extra = schema.find("additionalProperties");
    for (const auto& [key, value] : v.items()) {
      if (auto p = properties.find(key); p != properties.end()) {
        if (auto bad = check(*p, value, spath + "/properties/" + key, vpath + "." + key)) return bad;
      } else if (extra != schema.end() && extra->is_boolean() && !extra->get<bool>()) {
        return fail("additionalProperties", "has \"" + key + "\", which the tool does not take");
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> schemaViolation(const json& schema, const json& value) {
  return check(schema, value, "", "arguments");
}

}  // namespace portcheck::mcp
