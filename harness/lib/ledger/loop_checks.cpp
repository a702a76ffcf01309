// The LOOP family: every loop check, and what they share.
#include <cstdlib>
#include <filesystem>

#include "ledger/checks/no_golden_progress_check.h"
#include "ledger/checks/regression_check.h"
#include "ledger/checks/repeated_finding_check.h"
#include "ledger/checks/tangled_change_check.h"
#include "ledger/checks/tolerance_loosened_check.h"
#include "ledger/loop_check.h"

namespace portcheck::ledger {

namespace {

int intOption(const Config& config, const std::string& key, int fallback) {
  auto it = config.options.find(key);
  if (it == config.options.end()) return fallback;
  char* end = nullptr;
  long v = std::strtol(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v < 1 || v > 10000) return fallback;
  return static_cast<int>(v);
}

// "12-14" or "12"; a deletion names the line it follows.
std::string lineRange(const Hunk& h) {
  int first = h.new_start, count = h.new_lines;
  if (count <= 1) return std::to_string(first);
  return std::to_string(first) + "-" + std::to_string(first + count - 1);
}

}  // namespace

LoopSettings loopSettings(const Config& config) {
  LoopSettings s;
  s.attempts_per_finding = intOption(config, "loop.attempts_per_finding", s.attempts_per_finding);
  s.attempts_without_progress = intOption(config, "loop.attempts_without_progress", s.attempts_without_progress);
  s.max_hunks = intOption(config, "loop.max_hunks", s.max_hunks);
  return s;
}

const std::vector<std::unique_ptr<LoopCheck>>& loopChecks() {
  static const std::vector<std::unique_ptr<LoopCheck>> checks = [] {
    std::vector<std::unique_ptr<LoopCheck>> v;
    v.push_back(std::make_unique<RepeatedFindingCheck>());
    v.push_back(std::make_unique<NoGoldenProgressCheck>());
    v.push_back(std::make_unique<TangledChangeCheck>());
    v.push_back(std::make_unique<RegressionCheck>());
    v.push_back(std::make_unique<ToleranceLoosenedCheck>());
    return v;
  }();
  return checks;
}

std::vector<Diagnostic> runLoopChecks(const LoopContext& ctx) {
  std::vector<Diagnostic> out;
  for (const auto& check : loopChecks()) check->check(ctx, out);
  return out;
}

std::string describeChange(const Attempt& a) {
  if (!a.changes) return a.scaffold ? "port-check new" : "first attempt";
  std::string text = a.toolchain_changed ? "toolchain changed" : "";
  if (a.changes->empty()) return text.empty() ? "no change" : text;
  for (const FileChange& c : *a.changes) {
    if (!text.empty()) text += "; ";
    text += std::filesystem::path(c.file).filename().string();
    if (c.status != "modified") {
      text += " " + c.status;
      continue;
    }
    if (!c.lines_known || c.hunks.empty()) continue;
    text += c.hunks.size() == 1 ? " line " : " lines ";
    for (std::size_t i = 0; i < c.hunks.size(); ++i) {
      if (i == 3) {
        text += ", ...";
        break;
      }
      text += (i ? ", " : "") + lineRange(c.hunks[i]);
    }
  }
  return text;
}

std::string projectAnchor(const Attempt& a) {
  std::string golden = a.project + "/pypto_src/golden.py";
  return a.hasFile(golden) ? golden : a.project;
}

}  // namespace portcheck::ledger
