#include "mcp/mcp_tools.h"

#include <cstdlib>
#include <sstream>

#include "app/commands.h"
#include "app/json_report_run.h"
#include "core/embedded_file.h"
#include "mcp/portable_schema.h"
#include "rules/catalogue.h"

namespace portcheck::mcp {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json schemaFile(std::string_view name) {
  const std::string path = "docs/schema/" + std::string(name);
  for (std::size_t i = 0; i < kResourceFilesCount; ++i)
    if (kResourceFiles[i].path == path) {
      json schema = json::parse(kResourceFiles[i].bytes(), nullptr, false);
      if (schema.is_object()) return schema;
    }
  return {{"type", "object"}};
}

// A schema of docs/schema/ as the tools declare it, portable to every client (portable_schema.h): the
// report schema it refers to bundled in, nullable types as anyOf.
json embeddedSchema(std::string_view name) {
  constexpr const char* kReport = "port-check-report.schema.json";
  return portableSchema(bundleReferences(schemaFile(name), kReport, schemaFile(kReport)));
}

json reportSchema() { return embeddedSchema("port-check-report.schema.json"); }

json pathsProperty() {
  return {{"type", "array"},
          {"minItems", 1},
          {"items", {{"type", "string"}, {"minLength", 1}}},
          {"description", "projects/<name>, projects/, pypto-lib/ or program files, relative to the workspace root"}};
}

json platformProperty() {
  return {{"type", "string"}, {"enum", json::array({"a2a3", "a5"})}, {"description", "target platform (default: configuration, then a2a3)"}};
}

json objectSchema(json properties, std::vector<std::string> required) {
  json s = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) s["required"] = required;
  return s;
}

json textContent(const std::string& text) { return json::array({{{"type", "text"}, {"text", text}}}); }

std::string rootList(const std::vector<fs::path>& roots) {
  std::string list;
  for (const fs::path& r : roots) list += (list.empty() ? "" : ", ") + r.string();
  return list;
}

// Path arguments resolved against the first root; any that leaves every root is refused.
std::optional<std::string> resolvePaths(const json& arguments, const ToolContext& ctx, std::vector<std::string>& out) {
  const fs::path base = ctx.roots.empty() ? ctx.options.cwd : ctx.roots.front();
  for (const json& p : arguments.value("paths", json::array())) {
    fs::path path = fs::path(p.get<std::string>());
    fs::path full = fs::weakly_canonical(path.is_absolute() ? path : base / path);
    bool inside = false;
    for (const fs::path& root : ctx.roots) {
      fs::path r = fs::weakly_canonical(root);
      auto rel = full.lexically_relative(r);
      inside = inside || (!rel.empty() && *rel.begin() != "..");
    }
    if (!inside)
      return "the path " + p.get<std::string>() + " is outside the workspace roots (" + rootList(ctx.roots) +
             "): name a path inside them, relative to " + base.string();
    out.push_back(full.string());
  }
  return std::nullopt;
}

CommonOptions callOptions(const json& arguments, const ToolContext& ctx) {
  CommonOptions o = ctx.options;
  o.format = Format::Json;
  o.output.reset();
  if (!ctx.roots.empty()) o.cwd = ctx.roots.front();
  if (arguments.contains("platform")) o.platform = parsePlatform(arguments["platform"].get<std::string>());
  return o;
}

// Runs a subcommand with JSON output and turns it into a tools/call result: the report as
// structuredContent (and as text, for clients without structured output); exit 2 is a tool error.
json reportResult(const std::function<int(const CommonOptions&, const Io&)>& command, const CommonOptions& options) {
  JsonReportRun run = runForJsonReport(command, options, [](const char* name) { return std::getenv(name); });
  if (!run.report.is_object())
    return toolError(run.text.empty() ? "port-check exited with status " + std::to_string(run.code) + " and no report"
                                      : run.text);
  json result = {{"content", textContent(run.report.dump(2, ' ', false, json::error_handler_t::replace))},
                 {"structuredContent", run.report}};
  if (run.code == kExitToolError) result["isError"] = true;
  return result;
}

CompileOptions compileOptions(const json& a) {
  CompileOptions c;
  if (a.contains("timeout")) c.timeout_seconds = a["timeout"].get<int>();
  c.no_cache = a.value("no_cache", false);
  c.run = a.value("run", false);
  return c;
}

using Runner = std::function<int(const CommonOptions&, const std::vector<std::string>&, const json&, const Io&)>;

Tool reportTool(std::string name, std::string title, std::string description, json extra_properties, Runner run) {
  json properties = {{"paths", pathsProperty()}, {"platform", platformProperty()}};
  for (auto& [k, v] : extra_properties.items()) properties[k] = v;
  Tool t{std::move(name), std::move(title), std::move(description), objectSchema(properties, {"paths"}), reportSchema(), {}};
  t.call = [run](const json& a, const ToolContext& ctx) {
    std::vector<std::string> paths;
    if (auto refused = resolvePaths(a, ctx, paths)) return toolError(*refused);
    CommonOptions o = callOptions(a, ctx);
    return reportResult([&](const CommonOptions& opts, const Io& io) { return run(opts, paths, a, io); }, o);
  };
  return t;
}

json timeoutProperty() {
  return {{"type", "integer"}, {"minimum", 1}, {"description", "seconds per compile or run (default: configuration, then 300 / 600)"}};
}

std::vector<Tool> buildTools() {
  std::vector<Tool> v;
  json no_cache = {{"type", "boolean"}, {"description", "compile (and run) again even when the cache holds a result"}};
  v.push_back(reportTool(
      "check", "Check a port",
      "Every stage that can run on the ports: lint, then compile with the real PyPTO compiler when it is found "
      "(SRAM figures beside the estimates), and with run: true the golden on the simulator. Findings, SRAM rows and "
      "golden verdicts as the port-check report model. A long compile reports progress and can be cancelled.",
      {{"run", {{"type", "boolean"}, {"description", "also run the golden on the simulator"}}},
       {"no_cache", no_cache},
       {"timeout", timeoutProperty()}},
      [](const CommonOptions& o, const std::vector<std::string>& p, const json& a, const Io& io) {
        return runCheck(o, p, io, compileOptions(a));
      }));
  v.push_back(reportTool(
      "lint", "Lint ports",
      "The static rules over PyPTO DSL ports and C++ incore kernels (milliseconds, no compiler): findings and the "
      "SRAM estimate of every incore kernel.",
      json::object(),
      [](const CommonOptions& o, const std::vector<std::string>& p, const json&, const Io& io) { return runLint(o, p, io); }));
  v.push_back(reportTool(
      "compile", "Compile with PyPTO",
      "Compiles the ports through the real PyPTO compiler (cached): compiler findings, the compiler's SRAM figures "
      "per kernel and space, performance hints. Reports progress per program; cancellation kills the compiler.",
      {{"no_cache", no_cache}, {"timeout", timeoutProperty()}},
      [](const CommonOptions& o, const std::vector<std::string>& p, const json& a, const Io& io) {
        return runCompile(o, compileOptions(a), p, io);
      }));
  v.push_back(reportTool(
      "run", "Run on the simulator",
      "Compiles (cached) and runs each port on PyPTO's CPU simulator against its golden.py: per-output verdicts "
      "and error figures (GOLD findings). Reports progress; cancellation kills the runtime.",
      {{"no_cache", no_cache}, {"timeout", timeoutProperty()}},
      [](const CommonOptions& o, const std::vector<std::string>& p, const json& a, const Io& io) {
        return runRun(o, compileOptions(a), p, io);
      }));
  v.push_back(reportTool(
      "verify", "Verify the correctness contract",
      "Runs each port's correctness contract (CONTRACT in golden.py, docs/contract.md): every case under every seed "
      "on a2a3sim and a5sim (or platform's), each with its ID and error figures, and the checks against gamed "
      "goldens (outputs that ignore their inputs, copy an input, hold one value, or write outside their tensor).",
      {{"no_cache", no_cache},
       {"timeout", timeoutProperty()},
       {"mutants", {{"type", "integer"}, {"minimum", 1}, {"maximum", 1000},
                    {"description", "also run up to N mutants of each passing port through its contract (GOLD024)"}}}},
      [](const CommonOptions& o, const std::vector<std::string>& p, const json& a, const Io& io) {
        VerifyOptions v;
        v.mutants = a.value("mutants", 0);
        return runVerify(o, compileOptions(a), p, io, v);
      }));
  v.push_back(reportTool(
      "report", "SRAM report and advice",
      "The SRAM table (estimate, and the compiler's figures when the compile cache holds them), the fusion and "
      "tiling advice (FUSE, MEM) and an HTML page with the task graph (written under the cache folder).",
      json::object(),
      [](const CommonOptions& o, const std::vector<std::string>& p, const json&, const Io& io) {
        return runReport(o, ReportOptions{}, p, io);
      }));

  Tool explain{"explain_rule", "Explain a rule",
               "What a port-check rule (e.g. MEM001, FUSE002, GOLD013) checks, why it matters, how to fix it, "
               "with a bad and a good example. The same text is the resource port-check://rules/<ID>.",
               objectSchema({{"id", {{"type", "string"}, {"minLength", 1}, {"description", "rule ID, e.g. MEM001"}}}}, {"id"}),
               objectSchema({{"id", {{"type", "string"}}},
                             {"name", {{"type", "string"}}},
                             {"family", {{"type", "string"}}},
                             {"severity", {{"type", "string"}}},
                             {"summary", {{"type", "string"}}},
                             {"description", {{"type", "string"}}},
                             {"hint", {{"type", "string"}}}},
                            {"id", "summary"}),
               {}};
  explain.output_schema.erase("additionalProperties");
  explain.call = [](const json& a, const ToolContext&) {
    const RuleInfo* r = Catalogue::builtin().find(a["id"].get<std::string>());
    if (!r) return toolError("no rule " + a["id"].get<std::string>() + " in the catalogue (the resources list every rule)");
    json rule = {{"id", r->id},          {"name", r->name},     {"family", r->family},
                 {"severity", std::string(toString(r->severity))}, {"summary", r->summary},
                 {"description", r->description}, {"rationale", r->rationale}, {"hint", r->hint},
                 {"references", r->references}};
    return json{{"content", textContent(ruleMarkdown(*r))}, {"structuredContent", rule}};
  };
  v.push_back(std::move(explain));

  Tool doctor{"doctor", "Check the toolchain",
              "For each level a user can reach (passes, kernels, simulator): what is there, what is missing and the "
              "command that fixes it; with run: true also the simulator self-test of vector, cube and mixed kernels.",
              objectSchema({{"level", {{"type", "string"}, {"enum", json::array({"passes", "kernels", "simulator"})}}},
                            {"run", {{"type", "boolean"}}},
                            {"probe_timeout", {{"type", "integer"}, {"minimum", 1}, {"maximum", 3600}}}},
                           {}),
              {{"type", "object"}},
              {}};
  doctor.call = [](const json& a, const ToolContext& ctx) {
    DoctorOptions d;
    d.level = a.value("level", std::string("simulator"));
    d.run = a.value("run", false);
    if (a.contains("probe_timeout")) d.probe_timeout_seconds = a.at("probe_timeout").get<int>();
    CommonOptions o = callOptions(a, ctx);
    return reportResult([&](const CommonOptions& opts, const Io& io) { return runDoctor(opts, d, io); }, o);
  };
  v.push_back(std::move(doctor));

  Tool ledger{"ledger", "The attempt ledger",
              "The attempts check, compile and run recorded for a project (projects/<name>/.port-check/ledger.jsonl): "
              "per attempt the change since the one before, the result, the golden verdict and figures, SRAM, and the "
              "loop rules (LOOP) it raised. Read it instead of counting attempts by hand.",
              objectSchema({{"project", {{"type", "string"}, {"minLength", 1}, {"description", "projects/<name>"}}},
                            {"last", {{"type", "integer"}, {"minimum", 1}, {"description", "only the newest N attempts"}}}},
                           {"project"}),
              embeddedSchema("port-check-ledger.schema.json"),
              {}};
  ledger.call = [](const json& a, const ToolContext& ctx) {
    json paths = {{"paths", json::array({a["project"]})}};
    std::vector<std::string> resolved;
    if (auto refused = resolvePaths(paths, ctx, resolved)) return toolError(*refused);
    LedgerOptions l;
    l.project = resolved.front();
    if (a.contains("last")) l.last = a["last"].get<int>();
    CommonOptions o = callOptions(a, ctx);
    return reportResult([&](const CommonOptions& opts, const Io& io) { return runLedger(opts, l, io); }, o);
  };
  v.push_back(std::move(ledger));

  Tool eval{"eval", "Score an attempt at an eval task",
            "Scores an attempt (a project folder with pypto_src/) at a porting task of evals/tasks/ with the task's own "
            "reference golden and contract, never the attempt's golden: lint, compile and contract on a2a3sim and a5sim "
            "(or platform's), the checks against gamed goldens, and the estimated device time against the task's naive "
            "form (docs/evals.md). The verdict names the first failing check.",
            objectSchema({{"task", {{"type", "string"}, {"minLength", 1}, {"description", "evals/tasks/<name>"}}},
                          {"attempt", {{"type", "string"}, {"minLength", 1}, {"description", "the attempt's project folder"}}},
                          {"platform", platformProperty()},
                          {"no_cache", no_cache},
                          {"timeout", timeoutProperty()}},
                         {"task", "attempt"}),
            embeddedSchema("port-check-eval.schema.json"),
            {}};
  eval.call = [](const json& a, const ToolContext& ctx) {
    json paths = {{"paths", json::array({a["task"], a["attempt"]})}};
    std::vector<std::string> resolved;
    if (auto refused = resolvePaths(paths, ctx, resolved)) return toolError(*refused);
    EvalOptions e;
    e.task = resolved[0];
    e.attempt = resolved[1];
    CommonOptions o = callOptions(a, ctx);
    return reportResult([&](const CommonOptions& opts, const Io& io) { return runEval(opts, compileOptions(a), e, io); }, o);
  };
  v.push_back(std::move(eval));

  Tool scaffold{"new", "Scaffold a port",
                "Creates projects/<name> from the templates: the original program's place, pypto_src/ with golden.py, "
                "the orchestration and incore functions, PORTING.md (and with kernel: true an AUTO-mode C++ kernel).",
                objectSchema({{"name", {{"type", "string"}, {"minLength", 1}}},
                              {"kind", {{"type", "string"}, {"enum", json::array({"op", "model"})}}},
                              {"kernel", {{"type", "boolean"}}}},
                             {"name"}),
                objectSchema({{"project", {{"type", "string"}}}, {"created", {{"type", "boolean"}}}, {"output", {{"type", "string"}}}},
                             {"project", "created"}),
                {}};
  scaffold.call = [](const json& a, const ToolContext& ctx) {
    NewOptions n;
    n.name = a["name"].get<std::string>();
    n.kind = a.value("kind", std::string("op"));
    n.kernel = a.value("kernel", false);
    CommonOptions o = callOptions(a, ctx);
    o.format = Format::Text;
    std::ostringstream out, err;
    Io io{out, err, false, [](const char* name) { return std::getenv(name); }};
    int code = runNew(o, n, io);
    std::string text = out.str() + err.str();
    json result = {{"content", textContent(text)},
                   {"structuredContent", {{"project", "projects/" + n.name}, {"created", code == 0}, {"output", text}}}};
    if (code != 0) result["isError"] = true;
    return result;
  };
  v.push_back(std::move(scaffold));
  return v;
}

}  // namespace

json Tool::descriptor() const {
  json d = {{"name", name}, {"title", title}, {"description", description}, {"inputSchema", input_schema}};
  if (!output_schema.is_null()) d["outputSchema"] = output_schema;
  return d;
}

const std::vector<Tool>& tools() {
  static const std::vector<Tool> all = buildTools();
  return all;
}

const Tool* findTool(const std::string& name) {
  for (const Tool& t : tools())
    if (t.name == name) return &t;
  return nullptr;
}

json toolError(const std::string& text) { return {{"content", textContent(text)}, {"isError", true}}; }

}  // namespace portcheck::mcp
