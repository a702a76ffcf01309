#include <algorithm>
#include "doctor/doctor_report.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/text.h"

namespace portcheck::doctor {

bool DoctorReport::healthy() const {
  if (!reached || static_cast<int>(*reached) < static_cast<int>(asked)) return false;
  for (const SelfTestCase& c : self_test)
    if (c.verdict != "pass") return false;
  return self_test_skipped.empty() && !interrupted;
}

namespace {

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

std::string doctorText(const DoctorReport& r) {
  std::string out = "port-check doctor: what this machine can do with PyPTO\n\n";
  std::optional<Level> shown;
  for (const Check& c : r.checks) {
    std::string level = shown == c.level ? "" : std::string(toString(c.level));
    shown = c.level;
    std::string state = c.state == CheckState::Ok        ? "ok"
                        : c.state == CheckState::Warning ? "WARN"
                        : c.state == CheckState::Skipped ? "SKIPPED"
                                                         : "MISSING";
    out += pad(level, 11) + pad(state, 9) + pad(c.title, 44) + c.found + "\n";
    if (!c.fix.empty()) out += pad("", 20) + "fix: " + c.fix + "\n";
  }
  out += "\n";
  if (r.interrupted) out += "Interrupted: the checks marked SKIPPED above were not finished.\n";
  if (r.reached) {
    out += "Reached: " + std::string(toString(*r.reached));
    out += *r.reached == Level::Simulator ? " (compile, kernels and simulator runs)"
           : *r.reached == Level::Kernels ? " (compile with kernel C++; no simulator runs)"
                                          : " (compile through every pass; kernels stop at .pto)";
    out += "\n";
  } else {
    out += "Reached: nothing (PyPTO cannot compile here)\n";
  }
  if (r.self_test_ran) {
    out += "\nSelf-test on " + r.platform + " (each program against its golden):\n";
    std::size_t kind_width = 0;  // the kinds' column fits the longest, so a detail never runs into it
    for (const SelfTestCase& c : r.self_test) kind_width = std::max(kind_width, c.kind.size());
    for (const SelfTestCase& c : r.self_test) {
      char secs[32];
      std::snprintf(secs, sizeof secs, "%5.1f s  ", c.seconds);
      std::string verdict = c.verdict == "pass" ? "pass" : c.verdict == "wrong" ? "WRONG" : "FAILED";
      std::string line = "  " + pad(verdict, 8) + secs + pad(c.kind, kind_width + 2);
      if (!c.detail.empty()) line += (c.rule.empty() ? "" : c.rule + ": ") + c.detail;
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    bool all = true;
    for (const SelfTestCase& c : r.self_test) all &= c.verdict == "pass";
    out += all ? "Every kind computes correctly on this simulator.\n"
               : "A port's failure in a kind marked WRONG or FAILED here is the toolchain's before it is the port's.\n";
    if (!r.at_risk.empty()) {
      out += "Ports and blocks of this workspace that call an op only a failed self-test exercises:\n";
      for (const PortAtRisk& p : r.at_risk) {
        std::string ops, tests;
        for (const std::string& op : p.ops) ops += (ops.empty() ? "" : ", ") + op;
        for (const std::string& t : p.self_tests) tests += (tests.empty() ? "" : ", ") + t;
        out += "  " + p.unit + ": " + ops + " (" + tests + ")\n";
      }
    } else if (!all) {
      out += "No port or block of this workspace calls an op that only a failed self-test exercises.\n";
    }
  } else if (!r.self_test_skipped.empty()) {
    out += "\nSelf-test not run: " + r.self_test_skipped + "\n";
  } else if (r.reached == Level::Simulator) {
    out += "\n`port-check doctor --run` runs a self-test of vector, cube and mixed kernels in FP32, BF16 and INT8.\n";
  }
  return out;
}

std::string doctorJson(const DoctorReport& r) {
  using nlohmann::json;
  json j;
  j["schema"] = "port-check-doctor/1";
  j["tool_version"] = r.tool_version;
  j["platform"] = r.platform;
  j["asked"] = std::string(toString(r.asked));
  j["reached"] = r.reached ? json(std::string(toString(*r.reached))) : json(nullptr);
  j["healthy"] = r.healthy();
  j["interrupted"] = r.interrupted;
  json checks = json::array();
  for (const Check& c : r.checks) {
    checks.push_back({{"id", c.id},
                      {"level", std::string(toString(c.level))},
                      {"title", c.title},
                      {"state", std::string(toString(c.state))},
                      {"found", sanitizeUtf8(c.found)},
                      {"fix", c.fix.empty() ? json(nullptr) : json(c.fix)}});
  }
  j["checks"] = std::move(checks);
  if (r.self_test_ran || !r.self_test_skipped.empty()) {
    json st;
    st["ran"] = r.self_test_ran;
    st["skipped"] = r.self_test_skipped.empty() ? json(nullptr) : json(r.self_test_skipped);
    json cases = json::array();
    for (const SelfTestCase& c : r.self_test) {
      cases.push_back({{"program", c.program},
                       {"kind", c.kind},
                       {"verdict", c.verdict},
                       {"rule", c.rule.empty() ? json(nullptr) : json(c.rule)},
                       {"detail", sanitizeUtf8(c.detail)},
                       {"seconds", c.seconds}});
    }
    st["cases"] = std::move(cases);
    json risky = json::array();
    for (const PortAtRisk& p : r.at_risk) risky.push_back({{"unit", p.unit}, {"ops", p.ops}, {"self_tests", p.self_tests}});
    st["at_risk"] = std::move(risky);
    j["self_test"] = std::move(st);
  } else {
    j["self_test"] = nullptr;
  }
  return j.dump(2) + "\n";
}

}  // namespace portcheck::doctor
