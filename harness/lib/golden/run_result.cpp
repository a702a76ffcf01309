#include "golden/run_result.h"

#include <nlohmann/json.hpp>

namespace portcheck {

using nlohmann::json;

namespace {

std::string text(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

std::optional<double> number(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::int64_t integer(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return 0;
  return it->get<std::int64_t>();
}

bool flag(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

std::vector<std::int64_t> ints(const json& j, const char* key) {
  std::vector<std::int64_t> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const json& v : *it)
    if (v.is_number()) out.push_back(v.get<std::int64_t>());
  return out;
}

// The adapter prints values as Python does: "nan", "inf", "0.125".
std::string valueText(const json& first, const char* number_key, const char* text_key) {
  std::string t = text(first, text_key);
  if (!t.empty()) return t;
  auto v = number(first, number_key);
  if (!v) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", *v);
  return buf;
}

// {"1": 16, "2": 0} as ordered pairs (the adapter's ULP buckets and step counts).
std::vector<std::pair<std::string, std::int64_t>> counts(const json& j) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  if (!j.is_object()) return out;
  for (auto e = j.begin(); e != j.end(); ++e)
    if (e->is_number()) out.emplace_back(e.key(), e->get<std::int64_t>());
  return out;
}

// The contract's comparator of one output and what it found (on the entry: comparator, pass_rate,
// close_share, max_steps, step_counts), and the error statistics (under "stats").
void parseComparison(const json& o, GoldenOutput& g) {
  g.comparator = text(o, "comparator");
  g.pass_rate = number(o, "pass_rate");
  if (auto it = o.find("max_steps"); it != o.end()) g.max_steps = counts(*it);
  if (auto it = o.find("step_counts"); it != o.end()) g.steps = counts(*it);
  auto stats = o.find("stats");
  if (stats == o.end() || !stats->is_object()) return;
  g.mean_abs_err = number(*stats, "mean_abs_err");
  g.mean_rel_err = number(*stats, "mean_rel_err");
  g.cosine = number(*stats, "cosine");
  g.close_share = number(*stats, "close_share");
  if (auto it = stats->find("ulp"); it != stats->end()) g.ulp_histogram = counts(*it);
}

GoldenOutput parseOutput(const json& o) {
  GoldenOutput g;
  g.name = text(o, "name");
  g.verdict = text(o, "verdict");
  g.passed = flag(o, "passed");
  g.dtype = text(o, "dtype");
  g.shape = ints(o, "shape");
  g.expected_shape = ints(o, "expected_shape");
  g.elements = integer(o, "elements");
  g.mismatches = integer(o, "mismatches");
  g.mismatch_share = number(o, "mismatch_share").value_or(0);
  g.max_abs_err = number(o, "max_abs_err");
  g.max_rel_err = number(o, "max_rel_err");
  g.worst_index = ints(o, "worst_index");
  if (auto it = o.find("first_mismatch"); it != o.end() && it->is_object()) {
    g.first_mismatch = ints(*it, "index");
    g.first_actual = valueText(*it, "actual", "actual_text");
    g.first_expected = valueText(*it, "expected", "expected_text");
  }
  g.nan_actual = integer(o, "nan_actual");
  g.inf_actual = integer(o, "inf_actual");
  g.nan_expected = integer(o, "nan_expected");
  g.inf_expected = integer(o, "inf_expected");
  g.never_written = flag(o, "never_written");
  g.rtol = number(o, "rtol").value_or(0);
  g.atol = number(o, "atol").value_or(0);
  g.tolerance_source = text(o, "tolerance_source");
  parseComparison(o, g);
  if (g.verdict.empty()) g.verdict = g.passed ? "pass" : (g.never_written ? "never_written" : "mismatch");
  return g;
}

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const json& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

bool parseCase(const json& c, GoldenCase& out, std::string& error) {
  if (!c.is_object() || !c.contains("id")) {
    error = "an entry of \"contract.cases\" has no id";
    return false;
  }
  out.id = text(c, "id");
  out.category = text(c, "category");
  out.seed = integer(c, "seed");
  out.passed = flag(c, "passed");
  out.status = text(c, "status");
  out.frozen = text(c, "frozen");
  out.seconds = number(c, "seconds").value_or(0);
  if (auto it = c.find("outputs"); it != c.end() && it->is_array())
    for (const json& o : *it) {
      if (!o.is_object() || !o.contains("name")) continue;
      out.outputs.push_back(parseOutput(o));
      out.outputs.back().case_id = out.label();
    }
  return true;
}

GoldenGamingFinding parseGaming(const json& f) {
  GoldenGamingFinding g;
  g.rule = text(f, "rule");
  g.output = text(f, "output");
  g.input = text(f, "input");
  g.cases = strings(f, "cases");
  g.detail = text(f, "detail");
  return g;
}

GoldenGamingFinding parseGuard(const json& f) {
  GoldenGamingFinding g;
  g.rule = "GOLD023";
  g.output = text(f, "tensor");
  g.bytes_changed = integer(f, "bytes_changed");
  g.first_offset = integer(f, "first_offset");
  g.side = text(f, "side");
  g.cases = strings(f, "cases");
  if (auto c = text(f, "case"); !c.empty() && g.cases.empty()) g.cases.push_back(c);
  g.source = text(f, "source");
  g.kernel = text(f, "kernel");
  g.stores = integer(f, "stores");
  g.file = text(f, "file");
  g.line = static_cast<int>(integer(f, "line"));
  return g;
}

// "localisation" (harness/adapter/port_check_localise.py): what the adapter found about the first
// failing case run. Scalars are kept as text (an index, a float, a string).
RunLocalisation parseLocalisation(const json& l) {
  RunLocalisation out;
  out.case_label = text(l, "case");
  out.verdict = text(l, "verdict");
  if (auto ir = l.find("ir"); ir != l.end() && ir->is_object()) {
    if (auto p = ir->find("passed"); p != ir->end() && p->is_boolean()) out.ir_passed = p->get<bool>();
    out.ir_calls = integer(*ir, "calls");
  }
  if (auto t = l.find("tasks"); t != l.end() && t->is_number_integer()) out.tasks = t->get<std::int64_t>();
  out.tasks_compared = integer(l, "tasks_compared");
  out.notes = strings(l, "notes");
  out.seconds = number(l, "seconds").value_or(0);
  auto f = l.find("first_wrong_task");
  if (f == l.end() || !f->is_object()) return out;
  FirstWrongTask t;
  if (auto i = f->find("index"); i != f->end() && i->is_number_integer()) t.index = i->get<std::int64_t>();
  t.task_id = text(*f, "task_id");
  t.kernel = text(*f, "kernel");
  t.file = text(*f, "file");
  t.line = static_cast<int>(integer(*f, "line"));
  t.param = text(*f, "param");
  t.output = text(*f, "output");
  if (auto s = f->find("scalars"); s != f->end() && s->is_object())
    for (auto e = s->begin(); e != s->end(); ++e) t.scalars[e.key()] = e->is_string() ? e->get<std::string>() : e->dump();
  t.mismatches = integer(*f, "mismatches");
  t.elements = integer(*f, "elements");
  t.never_written = integer(*f, "never_written");
  t.first_index = ints(*f, "first_index");
  t.max_abs_err = number(*f, "max_abs_err");
  t.simulated = number(*f, "sim");
  t.replayed = number(*f, "replay");
  t.dtype = text(*f, "dtype");
  t.self_test = text(*f, "self_test");
  out.first = std::move(t);
  return out;
}

bool parseContract(const json& j, RunResult& r, std::string& error) {
  auto it = j.find("contract");
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_object()) {
    error = "\"contract\" is not an object";
    return false;
  }
  const json& c = *it;
  r.contract = flag(c, "declared");
  r.contract_kind = text(c, "kind");
  r.seeds = ints(c, "seeds");
  if (auto cases = c.find("cases"); cases != c.end() && cases->is_array())
    for (const json& one : *cases) {
      GoldenCase gc;
      if (!parseCase(one, gc, error)) return false;
      r.cases.push_back(std::move(gc));
    }
  if (auto g = c.find("gaming"); g != c.end() && g->is_array())
    for (const json& f : *g)
      if (f.is_object()) r.gaming.push_back(parseGaming(f));
  if (auto g = c.find("guard"); g != c.end() && g->is_array())
    for (const json& f : *g)
      if (f.is_object()) r.gaming.push_back(parseGuard(f));
  return true;
}

}  // namespace

bool parseRunResult(const std::string& body, RunResult& r, std::string& error) {
  json j;
  try {
    j = json::parse(body);
  } catch (const std::exception& e) {
    error = std::string("not JSON (") + e.what() + ")";
    return false;
  }
  if (!j.is_object()) {
    error = "not a JSON object";
    return false;
  }
  if (!j.contains("status") || !j["status"].is_string()) {
    error = "no \"status\" string";
    return false;
  }
  r = RunResult{};
  r.present = true;
  r.schema = text(j, "schema");
  r.status = text(j, "status");
  r.phase = text(j, "phase");
  r.program = text(j, "program");
  r.platform = text(j, "platform");
  r.exception_type = text(j, "exception_type");
  r.exception_message = text(j, "exception_message");
  r.traceback = text(j, "traceback");
  r.golden_function = text(j, "golden_function");
  r.ptoas = text(j, "ptoas");
  r.torch_version = text(j, "torch_version");
  r.seed = static_cast<int>(integer(j, "seed"));
  r.rtol = number(j, "rtol").value_or(0);
  r.atol = number(j, "atol").value_or(0);
  r.tolerance_source = text(j, "tolerance_source");
  r.seconds_execute = number(j, "seconds_execute").value_or(0);
  if (auto it = j.find("entry_location"); it != j.end() && it->is_object()) {
    r.entry_file = text(*it, "file");
    r.entry_line = static_cast<int>(integer(*it, "line"));
    if (auto p = it->find("params"); p != it->end() && p->is_object())
      for (auto e = p->begin(); e != p->end(); ++e)
        if (e->is_number()) r.output_lines[e.key()] = e->get<int>();
  }
  if (auto it = j.find("outputs"); it != j.end()) {
    if (!it->is_array()) {
      error = "\"outputs\" is not an array";
      return false;
    }
    for (const json& o : *it) {
      if (!o.is_object() || !o.contains("name")) {
        error = "an entry of \"outputs\" has no name";
        return false;
      }
      r.outputs.push_back(parseOutput(o));
    }
  }
  if (!parseContract(j, r, error)) return false;
  r.failed_case = text(j, "failed_case");
  r.guard_mode = text(j, "guard_mode");
  if (auto l = j.find("localisation"); l != j.end() && l->is_object()) r.localisation = parseLocalisation(*l);
  for (GoldenOutput& o : r.outputs)
    if (o.case_id.empty()) o.case_id = r.failed_case;
  if (r.status == "ok" && r.outputs.empty()) {
    error = "status ok without outputs";
    return false;
  }
  return true;
}

}  // namespace portcheck
