#include "ledger/attempt_json.h"

namespace portcheck::ledger {

using nlohmann::json;

namespace {

json orNull(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json orNull(const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); }
json orNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json hunkToJson(const Hunk& h) {
  return {{"old_start", h.old_start}, {"old_lines", h.old_lines}, {"new_start", h.new_start}, {"new_lines", h.new_lines}};
}

json changeToJson(const FileChange& c) {
  json hunks = json::array();
  for (const Hunk& h : c.hunks) hunks.push_back(hunkToJson(h));
  return {{"file", c.file},           {"status", c.status},       {"lines_known", c.lines_known},
          {"hunks", hunks},           {"functions", c.functions}, {"kernels", c.kernels}};
}

json goldenToJson(const GoldenOutcome& g) {
  json outputs = json::array();
  for (const GoldenOutputFigures& o : g.outputs)
    outputs.push_back({{"name", o.name},
                       {"passed", o.passed},
                       {"verdict", o.verdict},
                       {"mismatches", o.mismatches},
                       {"elements", o.elements},
                       {"max_abs_err", orNull(o.max_abs_err)},
                       {"max_rel_err", orNull(o.max_rel_err)},
                       {"rtol", orNull(o.rtol)},
                       {"atol", orNull(o.atol)}});
  return {{"status", g.status},         {"platform", g.platform}, {"rule", orNull(g.rule)},
          {"detail", g.detail},         {"max_abs_err", orNull(g.maxAbsErr())}, {"outputs", outputs}};
}

// Readers: a missing or mistyped field throws json::exception, which parseRecord turns into `error`.
std::optional<double> optDouble(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}
std::optional<std::int64_t> optInt(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::int64_t>();
}
std::string optString(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return {};
  return j.at(key).get<std::string>();
}

Severity severityFrom(const json& j) {
  auto s = parseSeverity(j.get<std::string>());
  if (!s) throw std::runtime_error("unknown severity '" + j.get<std::string>() + "'");
  return *s;
}
Stage stageFrom(const json& j) {
  auto s = parseStage(j.get<std::string>());
  if (!s) throw std::runtime_error("unknown source '" + j.get<std::string>() + "'");
  return *s;
}

Attempt attemptFrom(const json& j) {
  Attempt a;
  a.number = j.at("attempt").get<int>();
  a.time = j.at("time").get<std::string>();
  a.command = j.at("command").get<std::string>();
  a.exit_code = j.at("exit_code").get<int>();
  a.platform = optString(j, "platform");
  a.tool_version = optString(j, "tool_version");
  a.project = j.at("project").get<std::string>();
  a.source_hash = j.at("hash").at("pypto_src").get<std::string>();
  a.library_hash = optString(j.at("hash"), "pypto_lib");
  if (j.contains("toolchain") && !j.at("toolchain").is_null()) {
    const json& t = j.at("toolchain");
    a.toolchain = t.at("id").get<std::string>();
    a.toolchain_text = optString(t, "text");
    a.toolchain_changed = t.value("changed", false);
  }
  a.scaffold = j.value("scaffold", false);
  a.repeats = j.value("repeats", 0);
  for (const json& f : j.at("files")) a.files.push_back({f.at("path").get<std::string>(), f.at("hash").get<std::string>()});
  if (!j.at("changes").is_null()) {
    a.changes.emplace();
    for (const json& c : j.at("changes")) {
      FileChange fc;
      fc.file = c.at("file").get<std::string>();
      fc.status = c.at("status").get<std::string>();
      fc.lines_known = c.at("lines_known").get<bool>();
      for (const json& h : c.at("hunks"))
        fc.hunks.push_back({h.at("old_start").get<int>(), h.at("old_lines").get<int>(), h.at("new_start").get<int>(),
                            h.at("new_lines").get<int>()});
      fc.functions = c.at("functions").get<std::vector<std::string>>();
      fc.kernels = c.at("kernels").get<std::vector<std::string>>();
      a.changes->push_back(std::move(fc));
    }
  }
  a.functions = j.at("functions").get<std::vector<std::string>>();
  for (const json& s : j.at("stages"))
    a.stages.push_back({s.at("name").get<std::string>(), s.at("state").get<std::string>(), optString(s, "detail")});
  for (const json& f : j.at("findings")) {
    Finding x;
    x.rule = f.at("rule").get<std::string>();
    x.severity = severityFrom(f.at("severity"));
    x.source = stageFrom(f.at("source"));
    x.file = optString(f, "file");
    x.line = f.at("line").is_null() ? 0 : f.at("line").get<int>();
    x.function = optString(f, "function");
    x.message = f.at("message").get<std::string>();
    a.findings.push_back(std::move(x));
  }
  for (const json& r : j.at("sram"))
    a.sram.push_back({r.at("kernel").get<std::string>(), r.at("space").get<std::string>(), optInt(r, "estimate"),
                      optInt(r, "actual"), r.at("capacity").get<std::int64_t>()});
  if (!j.at("golden").is_null()) {
    const json& g = j.at("golden");
    GoldenOutcome o;
    o.status = g.at("status").get<std::string>();
    o.platform = optString(g, "platform");
    o.rule = optString(g, "rule");
    o.detail = optString(g, "detail");
    for (const json& x : g.at("outputs"))
      o.outputs.push_back({x.at("name").get<std::string>(), x.at("passed").get<bool>(), optString(x, "verdict"),
                           x.at("mismatches").get<std::int64_t>(), x.at("elements").get<std::int64_t>(),
                           optDouble(x, "max_abs_err"), optDouble(x, "max_rel_err"), optDouble(x, "rtol"),
                           optDouble(x, "atol")});
    a.golden = std::move(o);
  }
  return a;
}

FoldedSummary summaryFrom(const json& j) {
  FoldedSummary s;
  s.attempts = j.at("attempts").get<int>();
  s.first_attempt = j.at("first_attempt").get<int>();
  s.last_attempt = j.at("last_attempt").get<int>();
  s.first_time = j.at("first_time").get<std::string>();
  s.last_time = j.at("last_time").get<std::string>();
  s.golden_passed = j.at("golden").at("passed").get<int>();
  s.golden_failed = j.at("golden").at("failed").get<int>();
  s.last_golden_pass = j.at("golden").at("last_pass").is_null() ? 0 : j.at("golden").at("last_pass").get<int>();
  s.best_max_abs_err = optDouble(j.at("golden"), "best_max_abs_err");
  s.rules = j.at("rules").get<std::map<std::string, int>>();
  s.project = optString(j, "project");
  return s;
}

}  // namespace

json attemptToJson(const Attempt& a) {
  json files = json::array();
  for (const FileHash& f : a.files) files.push_back({{"path", f.path}, {"hash", f.hash}});
  json changes = nullptr;
  if (a.changes) {
    changes = json::array();
    for (const FileChange& c : *a.changes) changes.push_back(changeToJson(c));
  }
  json stages = json::array();
  for (const StageRecord& s : a.stages) stages.push_back({{"name", s.name}, {"state", s.state}, {"detail", s.detail}});
  json findings = json::array();
  for (const Finding& f : a.findings)
    findings.push_back({{"rule", f.rule},
                        {"severity", toString(f.severity)},
                        {"source", toString(f.source)},
                        {"file", orNull(f.file)},
                        {"line", f.line > 0 ? json(f.line) : json(nullptr)},
                        {"function", orNull(f.function)},
                        {"message", f.message}});
  json sram = json::array();
  for (const KernelSram& r : a.sram)
    sram.push_back({{"kernel", r.kernel},
                    {"space", r.space},
                    {"estimate", orNull(r.estimate)},
                    {"actual", orNull(r.actual)},
                    {"capacity", r.capacity}});
  return {{"kind", "attempt"},
          {"schema", kRecordSchema},
          {"attempt", a.number},
          {"time", a.time},
          {"command", a.command},
          {"exit_code", a.exit_code},
          {"platform", a.platform},
          {"tool_version", a.tool_version},
          {"project", a.project},
          {"hash", {{"pypto_src", a.source_hash}, {"pypto_lib", orNull(a.library_hash)}}},
          {"toolchain", a.toolchain.empty() ? json(nullptr)
                                            : json{{"id", a.toolchain},
                                                   {"text", a.toolchain_text},
                                                   {"changed", a.toolchain_changed}}},
          {"scaffold", a.scaffold},
          {"repeats", a.repeats},
          {"files", files},
          {"changes", changes},
          {"functions", a.functions},
          {"stages", stages},
          {"findings", findings},
          {"sram", sram},
          {"golden", a.golden ? goldenToJson(*a.golden) : json(nullptr)}};
}

json repeatToJson(const Attempt& rerun) {
  json j = attemptToJson(rerun);
  j["kind"] = "repeat";
  return j;
}

json summaryToJson(const FoldedSummary& s) {
  return {{"kind", "summary"},
          {"project", orNull(s.project)},
          {"schema", kRecordSchema},
          {"attempts", s.attempts},
          {"first_attempt", s.first_attempt},
          {"last_attempt", s.last_attempt},
          {"first_time", s.first_time},
          {"last_time", s.last_time},
          {"golden",
           {{"passed", s.golden_passed},
            {"failed", s.golden_failed},
            {"last_pass", s.last_golden_pass > 0 ? json(s.last_golden_pass) : json(nullptr)},
            {"best_max_abs_err", orNull(s.best_max_abs_err)}}},
          {"rules", s.rules}};
}

ParsedRecord parseRecord(const std::string& line) {
  ParsedRecord r;
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.error = "not a JSON object";
    return r;
  }
  try {
    if (j.value("schema", 0) != kRecordSchema) {
      r.error = "record schema " + j.value("schema", json(nullptr)).dump() + ", this port-check reads " +
                std::to_string(kRecordSchema);
      return r;
    }
    std::string kind = j.at("kind").get<std::string>();
    if (kind == "attempt" || kind == "repeat") {
      r.attempt = attemptFrom(j);
      r.repeat = kind == "repeat";
    }
    else if (kind == "summary") r.summary = summaryFrom(j);
    else r.error = "unknown record kind '" + kind + "'";
  } catch (const std::exception& e) {
    r.attempt.reset();
    r.summary.reset();
    r.error = e.what();
  }
  return r;
}

std::string recordLine(const json& record) {
  return record.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace portcheck::ledger
