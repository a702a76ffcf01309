#include "evals/eval_score.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <set>
#include <sstream>

#include "core/json_fields.h"
#include "ledger/ledger_file.h"

namespace portcheck::evals {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// A list field of a report object, by reference into it (value() would return a copy); empty when absent.
const json& list(const json& o, const char* key) {
  static const json kEmpty = json::array();
  auto it = o.find(key);
  return it != o.end() && it->is_array() ? *it : kEmpty;
}

int number(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_number_integer() ? it->get<int>() : 0;
}

bool inProject(const json& d, const std::string& project) {
  const std::string file = jsonString(d, "file");
  const std::string prefix = "projects/" + project + "/";
  return file.compare(0, prefix.size(), prefix) == 0;
}

// The attempt's error findings of the static stages, "DSL123 incore.py:14" each (the gamed kinds the lint
// sees: host computation DSL123, the reference imported PROJ006, ...).
std::vector<std::string> staticErrors(const json& verify, const std::string& project) {
  std::vector<std::string> out;
  for (const json& d : list(verify, "diagnostics")) {
    if (jsonString(d, "severity") != "error" || !inProject(d, project)) continue;
    const std::string source = jsonString(d, "source");
    if (source != "lint" && source != "estimator") continue;
    std::string file = jsonString(d, "file");
    file = file.substr(file.rfind('/') + 1);
    out.push_back(jsonString(d, "rule") + " " + file + ":" + std::to_string(number(d, "line")) + " " +
                  jsonString(d, "message"));
  }
  return out;
}

const json* goldenRun(const json& verify, const std::string& project, const std::string& sim) {
  for (const json& g : list(verify, "golden"))
    if (jsonString(g, "project") == project && jsonString(g, "platform") == sim) return &g;
  return nullptr;
}

// The tool's own failure that stopped the runs (no toolchain: COMP909, TOOL003, ...), when there is one.
std::string toolFailure(const json& verify) {
  for (const json& d : list(verify, "diagnostics")) {
    const std::string rule = jsonString(d, "rule");
    if (jsonString(d, "severity") == "error" && (rule == "COMP909" || rule.rfind("TOOL", 0) == 0))
      return rule + ": " + jsonString(d, "message");
  }
  return "";
}

const json* scheduleOf(const json& report, const std::string& project) {
  for (const json& s : list(report, "schedule"))
    if (jsonString(s, "project") == project) return &s;
  return nullptr;
}

std::optional<double> deviceUs(const json* row) {
  if (!row) return std::nullopt;
  auto device = row->find("device");
  if (device == row->end() || !device->is_object()) return std::nullopt;
  auto us = device->find("us");
  if (us == device->end() || !us->is_number()) return std::nullopt;
  return us->get<double>();
}

std::optional<std::time_t> parseUtc(const std::string& text) {
  std::tm tm{};
  std::istringstream in(text);
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  if (in.fail()) return std::nullopt;
  return timegm(&tm);
}

}  // namespace

EvalResult scoreAttempt(const EvalTask& task, const std::string& attempt_display, const json& verify,
                        const json& report, const std::vector<std::string>& platforms) {
  EvalResult r;
  r.task = task.name;
  r.kind = task.kind;
  r.attempt = attempt_display;
  auto add = [&](std::string name, bool ok, std::string detail) {
    r.checks.push_back({std::move(name), ok ? "pass" : "fail", std::move(detail)});
  };

  const std::vector<std::string> errors = staticErrors(verify, task.name);
  add("lint", errors.empty(),
      errors.empty() ? "no error from the static rules"
                     : std::to_string(errors.size()) + " error(s), first: " + errors.front());

  const std::string tool = toolFailure(verify);
  bool judged = false;
  std::set<std::string> gamed;
  for (const std::string& platform : platforms) {
    const std::string sim = platform + "sim";
    const json* g = goldenRun(verify, task.name, sim);
    if (!g) {
      r.checks.push_back({"compile (" + platform + ")", "error",
                          "not compiled: " + (tool.empty() ? std::string("no run was recorded") : tool)});
      r.checks.push_back({"contract (" + sim + ")", "error", "not run"});
      continue;
    }
    judged = true;
    const bool compiled = jsonString(*g, "failure") != "compile-failed";
    add("compile (" + platform + ")", compiled, compiled ? "compiled" : jsonString(*g, "detail"));
    const bool passed = jsonString(*g, "status") == "passed";
    std::string detail = jsonString(*g, "detail");
    if (!passed && !jsonString(*g, "rule").empty()) detail = jsonString(*g, "rule") + ": " + detail;
    add("contract (" + sim + ")", passed, detail);
    if (auto contract = g->find("contract"); contract != g->end() && contract->is_object())
      for (const json& f : list(*contract, "gaming"))
        gamed.insert(jsonString(f, "rule") + " " + jsonString(f, "output") + ": " + jsonString(f, "detail"));
  }
  add("gaming", gamed.empty(),
      gamed.empty() ? "no output ignores its inputs, copies one, holds one value or writes outside its tensor"
                    : *gamed.begin());

  r.attempt_us = deviceUs(scheduleOf(report, task.name));
  r.naive_us = deviceUs(scheduleOf(report, task.name + "_naive"));
  if (const json* row = scheduleOf(report, task.name)) {
    if (number(*row, "kernels") > 0) r.kernels = number(*row, "kernels");
    if (auto tasks = row->find("tasks"); tasks != row->end() && tasks->is_number_integer()) r.tasks = tasks->get<int>();
  }
  if (!r.attempt_us || !r.naive_us || *r.attempt_us <= 0) {
    r.checks.push_back({"speed", "fail",
                        std::string("no estimate of the ") + (!r.attempt_us ? "attempt's" : "naive form's") +
                            " device time (docs/perf-model.md): the schedule is not static"});
  } else {
    r.speedup = *r.naive_us / *r.attempt_us;
    const bool faster = *r.speedup > task.min_speedup;
    add("speed", faster,
        "est. " + fixed(*r.attempt_us, 1) + " us against the naive form's " + fixed(*r.naive_us, 1) + " us (" +
            fixed(*r.speedup, 2) + "x" + (faster ? "" : ", needs more than " + fixed(task.min_speedup, 2) + "x") + ")");
  }

  for (const EvalCheck& c : r.checks)
    if (c.state != "pass") {
      r.first_failing = c.name;
      r.reason = c.detail;
      break;
    }
  r.verdict = r.first_failing.empty() ? "passed" : "failed";
  if (!judged) {
    r.verdict = "error";
    r.first_failing = "toolchain";
    r.reason = tool.empty() ? "nothing ran on a simulator" : tool;
  }
  return r;
}

std::optional<LedgerSummary> readAttemptLedger(const fs::path& attempt_dir) {
  std::string error;
  const ledger::LedgerRead read = ledger::readLedger(ledger::ledgerPaths(attempt_dir).ledger, error);
  const ledger::LedgerHistory& h = read.history;
  if (!error.empty() || (h.attempts.empty() && !h.summary)) return std::nullopt;
  LedgerSummary s;
  std::string first = h.summary ? h.summary->first_time : std::string();
  std::string last = h.summary ? h.summary->last_time : std::string();
  if (h.summary) s.attempts += h.summary->attempts;
  s.attempts += static_cast<int>(h.attempts.size());
  if (!h.attempts.empty()) {
    if (first.empty()) first = h.attempts.front().time;
    last = h.attempts.back().time;
  }
  if (s.attempts == 0) return std::nullopt;
  std::optional<std::time_t> t0 = parseUtc(first), t1 = parseUtc(last);
  if (t0 && t1) s.minutes = static_cast<double>(*t1 - *t0) / 60.0;
  // The rules of the newest attempt: what the agent left unresolved.
  std::set<std::string> rules;
  if (!h.attempts.empty())
    for (const ledger::Finding& f : h.attempts.back().findings) rules.insert(f.rule);
  else
    for (const auto& [rule, count] : h.summary->rules) rules.insert(rule);
  s.rules.assign(rules.begin(), rules.end());
  return s;
}

json toJson(const EvalResult& r) {
  json checks = json::array();
  for (const EvalCheck& c : r.checks) checks.push_back({{"name", c.name}, {"state", c.state}, {"detail", c.detail}});
  auto orNullD = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  auto orNullI = [](const std::optional<int>& v) { return v ? json(*v) : json(nullptr); };
  json ledger = nullptr;
  if (r.ledger)
    ledger = {{"attempts", r.ledger->attempts}, {"minutes", r.ledger->minutes}, {"rules", r.ledger->rules}};
  return {{"task", r.task},
          {"kind", r.kind},
          {"attempt", r.attempt},
          {"verdict", r.verdict},
          {"first_failing", r.first_failing.empty() ? json(nullptr) : json(r.first_failing)},
          {"reason", r.reason},
          {"checks", checks},
          {"device_us", {{"attempt", orNullD(r.attempt_us)}, {"naive", orNullD(r.naive_us)}, {"speedup", orNullD(r.speedup)}}},
          {"kernels", orNullI(r.kernels)},
          {"tasks", orNullI(r.tasks)},
          {"ledger", ledger},
          {"seconds", r.seconds}};
}

std::string toText(const std::vector<EvalResult>& results) {
  std::ostringstream out;
  int passed = 0;
  for (const EvalResult& r : results) {
    passed += r.verdict == "passed";
    out << r.task << " (" << r.kind << "): " << r.verdict;
    if (r.speedup) out << ", est. " << fixed(*r.attempt_us, 1) << " us, " << fixed(*r.speedup, 2) << "x the naive form";
    out << "\n";
    for (const EvalCheck& c : r.checks) out << "  " << (c.state == "pass" ? "ok   " : c.state == "fail" ? "FAIL " : "ERROR") << " " << c.name << ": " << c.detail << "\n";
    if (r.ledger)
      out << "  ledger: " << r.ledger->attempts << " attempt(s) over " << fixed(r.ledger->minutes, 1) << " min\n";
  }
  out << passed << " of " << results.size() << " attempt(s) passed\n";
  return out.str();
}

}  // namespace portcheck::evals
