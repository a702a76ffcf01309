// SARIF 2.1.0: one run, the rules the results use (with full help), relative artifact URIs.
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "output/emitter.h"
#include "rules/catalogue.h"

namespace portcheck {

using nlohmann::json;

namespace {

std::string_view sarifLevel(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "note";
  }
  return "warning";
}

// Percent-encodes what is not allowed in a URI path segment; keeps '/'.
std::string uriPath(std::string_view path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    bool keep = std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    if (keep) out += static_cast<char>(c);
    else { out += '%'; out += kHex[c >> 4]; out += kHex[c & 15]; }
  }
  return out;
}

json ruleDescriptor(const RuleInfo& r, const EmitOptions& options) {
  std::string help = r.description + "\n\nWhy: " + r.rationale + "\n\nFix: " + r.hint;
  json j = {{"id", r.id},
            {"name", r.name},
            {"shortDescription", {{"text", r.summary}}},
            {"fullDescription", {{"text", r.description}}},
            {"help", {{"text", help}, {"markdown", "**" + r.summary + "**\n\n" + help}}},
            {"defaultConfiguration", {{"level", sarifLevel(r.severity)}}},
            {"properties", {{"family", r.family}, {"source", toString(r.source)}, {"tags", {r.family}}}}};
  if (!options.doc_base_url.empty()) j["helpUri"] = docLink(r.docAnchor(), options);
  return j;
}

json region(int line, int column, int end_line, int end_column) {
  json r = {{"startLine", line}};
  if (column > 0) r["startColumn"] = column;
  if (end_line >= line && end_line > 0) r["endLine"] = end_line;
  if (end_column > 0 && end_line > 0) r["endColumn"] = end_column;
  return r;
}

json physicalLocation(const std::string& file, int line, int column, int end_line, int end_column) {
  json loc = {{"artifactLocation", {{"uri", uriPath(file)}, {"uriBaseId", "%SRCROOT%"}}}};
  if (line > 0) loc["region"] = region(line, column, end_line, end_column);
  return loc;
}

std::string fingerprint(const Diagnostic& d) {
  // Line-insensitive: rule + file + message survive edits above the finding.
  std::size_t h = std::hash<std::string>{}(d.rule + '\0' + d.file + '\0' + d.message);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016zx", h);
  return buf;
}

}  // namespace

std::string emitSarif(const Report& report, const EmitOptions& options) {
  const Catalogue& cat = Catalogue::builtin();
  std::map<std::string, int> rule_index;
  json rules = json::array();
  for (const Diagnostic& d : report.diagnostics) {
    if (rule_index.count(d.rule)) continue;
    const RuleInfo* info = cat.find(d.rule);
    if (!info) continue;
    rule_index[d.rule] = static_cast<int>(rules.size());
    rules.push_back(ruleDescriptor(*info, options));
  }
  json results = json::array();
  for (const Diagnostic& d : report.diagnostics) {
    std::string text = d.message;
    if (!d.hint.empty()) text += "\nhint: " + d.hint;
    json r = {{"ruleId", d.rule}, {"level", sarifLevel(d.severity)}, {"message", {{"text", text}}}};
    if (auto it = rule_index.find(d.rule); it != rule_index.end()) r["ruleIndex"] = it->second;
    if (!d.file.empty())
      r["locations"] = json::array({{{"physicalLocation",
                                      physicalLocation(d.file, d.line, d.column, d.end_line, d.end_column)}}});
    json related = json::array();
    int id = 0;
    for (const DiagnosticNote& n : d.notes) {
      json rel = {{"id", id++}, {"message", {{"text", n.message}}}};
      std::string file = n.file.empty() ? d.file : n.file;
      if (!file.empty()) rel["physicalLocation"] = physicalLocation(file, n.line, n.column, 0, 0);
      related.push_back(rel);
    }
    if (!related.empty()) r["relatedLocations"] = related;
    r["partialFingerprints"] = {{"portCheckFinding/v1", fingerprint(d)}};
    json props = {{"source", toString(d.source)}};
    if (d.sram)
      props["sram"] = {{"function", d.sram->function}, {"space", d.sram->space}, {"used", d.sram->used},
                       {"limit", d.sram->limit}};
    r["properties"] = props;
    results.push_back(r);
  }
  json notifications = json::array();
  for (const StageStatus& s : report.run.stages)
    if (s.state != StageState::Ran)
      notifications.push_back({{"level", s.state == StageState::Failed ? "error" : "note"},
                               {"message", {{"text", s.name + " " + std::string(toString(s.state)) +
                                                         (s.detail.empty() ? "" : ": " + s.detail)}}}});
  // Exit status 2: port-check could not do its job; the tool errors say why.
  const bool succeeded = options.exit_code != 2;
  if (!succeeded) {
    std::string why;
    for (const Diagnostic& d : report.diagnostics)
      if (d.source == Stage::Tool && d.severity == Severity::Error)
        why += (why.empty() ? "" : "; ") + d.message + " [" + d.rule + "]";
    notifications.push_back({{"level", "error"},
                             {"message", {{"text", "port-check could not do its job (exit status 2)" +
                                                       (why.empty() ? std::string() : ": " + why)}}},
                             {"properties", {{"exitCode", options.exit_code}}}});
  }
  json invocation = {{"executionSuccessful", succeeded}, {"exitCode", options.exit_code}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  json driver = {{"name", "port-check"},
                 {"version", report.run.tool_version},
                 {"semanticVersion", report.run.tool_version},
                 {"rules", rules}};
  json run = {{"tool", {{"driver", driver}}},
              {"invocations", json::array({invocation})},
              {"columnKind", "unicodeCodePoints"},
              {"results", results},
              {"properties", {{"platform", report.run.platform}, {"toolchain", report.run.toolchain},
                              {"catalogueVersion", report.run.catalogue_version}}}};
  // One shard of a CI matrix (--shard): its own category, so code scanning merges the shards' logs.
  if (!report.run.automation_id.empty()) run["automationDetails"] = {{"id", report.run.automation_id}};
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({run})}};
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace portcheck
