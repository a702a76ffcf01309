// The MCP server in process: argument schemas, bounded message reading, and the protocol paths a
// client can take (the official SDK drives the binary in tests/mcp/mcp_sdk_test.mjs).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "mcp/arg_schema.h"
#include "mcp/json_rpc.h"
#include "mcp/mcp_resources.h"
#include "mcp/mcp_server.h"
#include "mcp/mcp_tools.h"
#include "test_support.h"

namespace portcheck {
namespace {

using nlohmann::json;

TEST(McpArgSchema, NamesTheSchemaPathThatFailed) {
  json schema = mcp::findTool("lint")->input_schema;
  EXPECT_FALSE(mcp::schemaViolation(schema, {{"paths", {"projects/a"}}, {"platform", "a5"}}));
  EXPECT_EQ(*mcp::schemaViolation(schema, json::object()), "/required: arguments has no \"paths\"");
  EXPECT_EQ(*mcp::schemaViolation(schema, {{"paths", "projects/a"}}),
            "/properties/paths/type: arguments.paths is a string, expected an array");
  EXPECT_EQ(*mcp::schemaViolation(schema, {{"paths", json::array()}}),
            "/properties/paths/minItems: arguments.paths has 0 items, expected at least 1");
  EXPECT_EQ(*mcp::schemaViolation(schema, {{"paths", {"a", 3}}}),
            "/properties/paths/items/type: arguments.paths[1] is an integer, expected a string");
  EXPECT_EQ(*mcp::schemaViolation(schema, {{"paths", {"a"}}, {"platform", "a9"}}),
            "/properties/platform/enum: arguments.platform is \"a9\", expected one of [\"a2a3\",\"a5\"]");
  EXPECT_EQ(*mcp::schemaViolation(schema, {{"paths", {"a"}}, {"colour", 1}}),
            "/additionalProperties: arguments has \"colour\", which the tool does not take");
  json compile = mcp::findTool("compile")->input_schema;
  EXPECT_EQ(*mcp::schemaViolation(compile, {{"paths", {"a"}}, {"timeout", 0}}),
            "/properties/timeout/minimum: arguments.timeout is 0, below the minimum 1");
}

TEST(McpJsonRpc, ALineOverTheLimitIsSkippedNotBuffered) {
  std::istringstream in(std::string(100, 'x') + "\n{\"ok\":1}\r\nlast");
  auto first = mcp::readMessageLine(in, 64);
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->too_long);
  EXPECT_EQ(first->length, 100u);
  EXPECT_TRUE(first->text.empty());
  auto second = mcp::readMessageLine(in, 64);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->text, "{\"ok\":1}");  // CR LF tolerated
  auto third = mcp::readMessageLine(in, 64);
  ASSERT_TRUE(third);
  EXPECT_EQ(third->text, "last");  // no final newline
  EXPECT_FALSE(mcp::readMessageLine(in, 64));
}

// Runs a whole session over string streams and returns every message the server sent.
std::vector<json> session(const std::vector<std::string>& lines, const std::filesystem::path& root) {
  std::string input;
  for (const std::string& l : lines) input += l + "\n";
  std::istringstream in(input);
  std::ostringstream out, log;
  mcp::ServerOptions options;
  options.base.cwd = root;
  options.max_message = 1024;
  mcp::serve(in, out, log, options);
  std::vector<json> messages;
  std::istringstream replies(out.str());
  for (std::string line; std::getline(replies, line);) messages.push_back(json::parse(line));
  return messages;
}

json byId(const std::vector<json>& messages, int id) {
  for (const json& m : messages)
    if (m.contains("id") && m["id"] == id) return m;
  return nullptr;
}

const std::string kInit =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}})";

TEST(McpServer, NegotiatesTheRevisionAndListsToolsAndResources) {
  test::TempDir ws;
  auto m = session({kInit, R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                    R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})",
                    R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"port-check://rules/DSL001"}})",
                    R"({"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"port-check://rules/NOPE"}})"},
                   ws.path());
  EXPECT_EQ(byId(m, 1)["result"]["protocolVersion"], "2025-03-26");
  EXPECT_EQ(byId(m, 1)["result"]["serverInfo"]["name"], "port-check");
  EXPECT_EQ(byId(m, 2)["result"]["tools"].size(), mcp::tools().size());
  EXPECT_NE(byId(m, 3)["result"]["contents"][0]["text"].get<std::string>().find("## DSL001"), std::string::npos);
  EXPECT_EQ(byId(m, 4)["error"]["code"], -32002);
}

TEST(McpServer, ProtocolErrorsAreTheOnesJsonRpcDefines) {
  test::TempDir ws;
  auto m = session({R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})",  // before initialize
                    kInit, "{oops", std::string(2000, ' ') + "{}",
                    R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}})",
                    R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"lint","arguments":[1]}})",
                    R"({"jsonrpc":"2.0","id":7,"method":"what/ever"})",
                    R"({"jsonrpc":"2.0","id":null,"method":"ping"})"},
                   ws.path());
  ASSERT_GE(m.size(), 8u);
  EXPECT_EQ(m[0]["error"]["code"], -32600);  // not initialised
  EXPECT_EQ(m[2]["error"]["code"], -32700);  // parse error: no id at all
  EXPECT_FALSE(m[2].contains("id"));
  EXPECT_EQ(m[3]["error"]["code"], -32600);  // over the 1024-byte limit
  EXPECT_EQ(byId(m, 5)["error"]["code"], -32602);
  EXPECT_EQ(byId(m, 6)["error"]["code"], -32602);
  EXPECT_EQ(byId(m, 7)["error"]["code"], -32601);
  EXPECT_EQ(m.back()["error"]["code"], -32600);  // a null request id
}

TEST(McpServer, ToolCallsAnswerAndRefusePathsOutsideTheRoot) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("projects/p/pypto_src/golden.py", "RTOL = 1e-5\n");
  ws.write("projects/p/pypto_src/program.py", "import pypto.language as pl\n");
  auto m = session({kInit,
                    R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lint","arguments":{"paths":["projects/p"]}}})",
                    R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lint","arguments":{"paths":["../../etc"]}}})",
                    R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"explain_rule","arguments":{"id":"MEM001"}}})"},
                   ws.path());
  json lint = byId(m, 2)["result"];
  EXPECT_FALSE(lint.value("isError", false)) << lint.dump();
  EXPECT_TRUE(lint["structuredContent"].contains("summary"));
  json outside = byId(m, 3)["result"];
  EXPECT_TRUE(outside["isError"].get<bool>());
  EXPECT_NE(outside["content"][0]["text"].get<std::string>().find("outside the workspace roots"), std::string::npos);
  EXPECT_EQ(byId(m, 4)["result"]["structuredContent"]["severity"], "error");
}

// A 2026-07-28 request: the revision and the client's capabilities in _meta, no session.
std::string modern(int id, const std::string& method, const std::string& params = "{}") {
  json p = json::parse(params);
  p["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", p}}.dump();
}

TEST(McpServer, ServerDiscoverAnswersWithEveryRevisionAndNoHandshake) {
  test::TempDir ws;
  auto m = session({modern(1, "server/discover"), modern(2, "tools/list"),
                    modern(3, "resources/read", R"({"uri":"port-check://rules/NOPE"})"),
                    R"({"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01"}}})",
                    R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})"},
                   ws.path());
  json discover = byId(m, 1)["result"];
  EXPECT_EQ(discover["resultType"], "complete");
  EXPECT_EQ(discover["supportedVersions"][0], "2026-07-28");
  EXPECT_NE(std::find(discover["supportedVersions"].begin(), discover["supportedVersions"].end(), "2025-11-25"),
            discover["supportedVersions"].end());
  EXPECT_TRUE(discover["capabilities"].contains("tools"));
  EXPECT_EQ(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "port-check");
  EXPECT_GE(discover["ttlMs"].get<long long>(), 0);
  EXPECT_EQ(discover["cacheScope"], "public");
  json list = byId(m, 2)["result"];  // served without initialize
  EXPECT_EQ(list["tools"].size(), mcp::tools().size());
  EXPECT_EQ(list["resultType"], "complete");
  EXPECT_TRUE(list.contains("ttlMs"));
  EXPECT_EQ(byId(m, 3)["error"]["code"], -32602);  // resource not found is Invalid Params in 2026-07-28
  json unsupported = byId(m, 4)["error"];
  EXPECT_EQ(unsupported["code"], -32022);
  EXPECT_EQ(unsupported["data"]["requested"], "1900-01-01");
  EXPECT_EQ(unsupported["data"]["supported"], discover["supportedVersions"]);
  EXPECT_EQ(byId(m, 5)["error"]["code"], -32600);  // no revision and no session
}

TEST(McpServer, ModernToolCallsAreConfinedToTheServersRoot) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("projects/p/pypto_src/golden.py", "RTOL = 1e-5\n");
  ws.write("projects/p/pypto_src/program.py", "import pypto.language as pl\n");
  auto m = session({modern(1, "tools/call", R"({"name":"lint","arguments":{"paths":["projects/p"]}})"),
                    modern(2, "tools/call", R"({"name":"lint","arguments":{"paths":["/etc"]}})")},
                   ws.path());
  json lint = byId(m, 1)["result"];
  EXPECT_FALSE(lint.value("isError", false)) << lint.dump();
  EXPECT_EQ(lint["resultType"], "complete");
  EXPECT_FALSE(lint.contains("ttlMs"));  // a tool result is not cacheable
  json outside = byId(m, 2)["result"];
  EXPECT_TRUE(outside["isError"].get<bool>());
  EXPECT_NE(outside["content"][0]["text"].get<std::string>().find("outside the workspace roots (" + ws.path().string()),
            std::string::npos);
}

TEST(McpResources, EveryRuleAndSkillFileIsListedAndReadable) {
  json list = mcp::resourceList()["resources"];
  std::size_t rules = 0, skills = 0;
  for (const json& r : list) {
    std::string uri = r["uri"];
    rules += uri.rfind("port-check://rules/", 0) == 0;
    skills += uri.rfind("port-check://skills/", 0) == 0;
    ASSERT_TRUE(mcp::readResource(uri)) << uri;
  }
  EXPECT_GT(rules, 100u);
  EXPECT_GT(skills, 8u);
  EXPECT_FALSE(mcp::readResource("port-check://skills/../rules/x.md"));
  EXPECT_FALSE(mcp::readResource("file:///etc/passwd"));
}

}  // namespace
}  // namespace portcheck
