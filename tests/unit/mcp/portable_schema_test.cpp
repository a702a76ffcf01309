// Output schemas every MCP client reads: no array-valued `type` (MCP Inspector's schema-portability
// warning) and no $ref into another file, with the same meaning as the documented schemas.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp/mcp_tools.h"
#include "mcp/portable_schema.h"

namespace portcheck {
namespace {

using nlohmann::json;

TEST(McpPortableSchema, NullableTypesBecomeAnyOfAndKeepTheirOtherKeywords) {
  json nullable = {{"type", json::array({"integer", "null"})}, {"minimum", 0}, {"description", "bytes"}};
  json portable = mcp::portableSchema(nullable);
  EXPECT_EQ(portable, (json{{"anyOf", json::array({{{"type", "integer"}}, {{"type", "null"}}})},
                            {"minimum", 0},
                            {"description", "bytes"}}));
  EXPECT_EQ(mcp::portableSchema({{"type", json::array({"string"})}}), (json{{"type", "string"}}));
  // An anyOf already there is kept; the types must hold as well.
  json both = mcp::portableSchema({{"type", json::array({"string", "null"})}, {"anyOf", json::array({{{"minLength", 1}}})}});
  EXPECT_EQ(both["anyOf"], json::array({{{"minLength", 1}}}));
  EXPECT_EQ(both["allOf"][0]["anyOf"].size(), 2u);
}

TEST(McpPortableSchema, InstancesInEnumConstAndDefaultAreLeftAlone) {
  json schema = {{"properties", {{"a", {{"type", json::array({"string", "null"})}, {"default", {{"type", json::array({1, 2})}}}}}}},
                 {"enum", json::array({{{"type", json::array({"x"})}}})}};
  json portable = mcp::portableSchema(schema);
  EXPECT_FALSE(portable["properties"]["a"].contains("type"));
  EXPECT_EQ(portable["properties"]["a"]["default"], schema["properties"]["a"]["default"]);
  EXPECT_EQ(portable["enum"], schema["enum"]);
}

TEST(McpPortableSchema, ReferencesIntoAnotherSchemaFileAreBundled) {
  json other = {{"$id", "other.json"}, {"definitions", {{"a", {{"$ref", "#/definitions/b"}}}, {"b", {{"type", "string"}}}}}};
  json schema = {{"properties", {{"x", {{"$ref", "other.json#/definitions/a"}}}}}};
  json bundled = mcp::bundleReferences(schema, "other.json", other);
  EXPECT_EQ(bundled["properties"]["x"]["$ref"], "#/definitions/other.json/definitions/a");
  EXPECT_EQ(bundled["definitions"]["other.json"]["definitions"]["a"]["$ref"], "#/definitions/other.json/definitions/b");
  EXPECT_FALSE(bundled["definitions"]["other.json"].contains("$id"));
  EXPECT_TRUE(mcp::unresolvedReferences(bundled).empty());
  EXPECT_EQ(mcp::unresolvedReferences(schema), std::vector<std::string>{"other.json#/definitions/a"});
  EXPECT_EQ(mcp::bundleReferences(other, "third.json", schema), other);  // nothing refers to it
}

TEST(McpPortableSchema, NoToolDeclaresAnArrayValuedTypeOrAReferenceOutsideItsSchema) {
  for (const mcp::Tool& t : mcp::tools()) {
    json d = t.descriptor();
    EXPECT_FALSE(mcp::hasTypeArray(d["inputSchema"])) << t.name;
    if (!d.contains("outputSchema")) continue;
    EXPECT_FALSE(mcp::hasTypeArray(d["outputSchema"])) << t.name;
    EXPECT_EQ(mcp::unresolvedReferences(d["outputSchema"]), std::vector<std::string>{}) << t.name;
  }
  // The report schema has nullable fields, so the rewrite had something to do.
  EXPECT_NE(mcp::findTool("lint")->descriptor()["outputSchema"].dump().find(R"({"type":"null"})"), std::string::npos);
}

}  // namespace
}  // namespace portcheck
