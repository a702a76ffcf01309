#pragma once
// The tools `port-check mcp` serves: each subcommand an agent needs (check, lint, compile, run, report,
// explain_rule, doctor, ledger, new), with its input JSON Schema and, where it returns the report model
// or the ledger, the output schema of `--format json` (docs/schema/).
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/options.h"

namespace portcheck::mcp {

// What a call runs with: the server's options with this call's cancellation and progress, and the
// workspace roots the client gave (every path argument must lie inside one of them).
struct ToolContext {
  CommonOptions options;
  std::vector<std::filesystem::path> roots;
};

struct Tool {
  std::string name;
  std::string title;
  std::string description;
  nlohmann::json input_schema;
  nlohmann::json output_schema;  // null: the tool returns text only
  // Returns the tools/call result: content, structuredContent when the tool has an output schema,
  // isError when the tool could not do its job (a path outside the roots, a tool error).
  std::function<nlohmann::json(const nlohmann::json& arguments, const ToolContext& context)> call;

  nlohmann::json descriptor() const;  // the tools/list entry
};

const std::vector<Tool>& tools();
const Tool* findTool(const std::string& name);

// A tools/call result carrying only an error text (isError: true).
nlohmann::json toolError(const std::string& text);

}  // namespace portcheck::mcp
