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
  if (g.verdict.empty()) g.verdict = g.passed ? "pass" : (g.never_written ? "never_written" : "mismatch");
  return g;
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
  if (r.status == "ok" && r.outputs.empty()) {
    error = "status ok without outputs";
    return false;
  }
  return true;
}

}  // namespace portcheck
