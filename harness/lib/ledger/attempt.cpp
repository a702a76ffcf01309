#include "ledger/attempt.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"

namespace portcheck::ledger {

namespace {

// The message with every run of digits (and the '.' / 'e' of a number) replaced by '#'.
std::string blankNumbers(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (std::size_t i = 0; i < message.size();) {
    if (std::isdigit(static_cast<unsigned char>(message[i]))) {
      while (i < message.size() && (std::isdigit(static_cast<unsigned char>(message[i])) || message[i] == '.' ||
                                    ((message[i] == 'e' || message[i] == 'E') && i + 1 < message.size() &&
                                     (std::isdigit(static_cast<unsigned char>(message[i + 1])) ||
                                      message[i + 1] == '-' || message[i + 1] == '+'))))
        i += (message[i] == 'e' || message[i] == 'E') ? 2 : 1;
      out += '#';
    } else {
      out += message[i++];
    }
  }
  return out;
}

}  // namespace

std::string Finding::key() const { return rule + "|" + file + "|" + function + "|" + blankNumbers(message); }

std::optional<double> KernelSram::percent() const {
  std::optional<std::int64_t> used = actual ? actual : estimate;
  if (!used || capacity <= 0) return std::nullopt;
  return 100.0 * static_cast<double>(*used) / static_cast<double>(capacity);
}

std::optional<double> GoldenOutcome::maxAbsErr() const {
  std::optional<double> worst;
  for (const GoldenOutputFigures& o : outputs)
    if (o.max_abs_err && (!worst || *o.max_abs_err > *worst)) worst = o.max_abs_err;
  return worst;
}

bool Attempt::stageRan(const std::string& name) const {
  return std::any_of(stages.begin(), stages.end(),
                     [&](const StageRecord& s) { return s.name == name && s.state == "ran"; });
}

const Finding* Attempt::finding(const std::string& key) const {
  for (const Finding& f : findings)
    if (f.key() == key) return &f;
  return nullptr;
}

bool Attempt::hasFinding(const std::string& key) const { return finding(key) != nullptr; }

bool Attempt::definesFunction(const std::string& name) const {
  return std::find(functions.begin(), functions.end(), name) != functions.end();
}

bool Attempt::hasFile(const std::string& path) const {
  return std::any_of(files.begin(), files.end(), [&](const FileHash& f) { return f.path == path; });
}

bool Attempt::sameInputs(const Attempt& next) const {
  return source_hash == next.source_hash && library_hash == next.library_hash && toolchain == next.toolchain;
}

void Attempt::absorbRepeat(const Attempt& next) {
  command = next.command;
  exit_code = next.exit_code;
  platform = next.platform;
  tool_version = next.tool_version;
  stages = next.stages;
  findings = next.findings;
  if (!next.sram.empty()) sram = next.sram;
  if (next.golden && next.golden->ran()) golden = next.golden;
  repeats += 1 + next.repeats;
}

void FoldedSummary::fold(const Attempt& a) {
  if (attempts == 0) {
    first_attempt = a.number;
    first_time = a.time;
  }
  ++attempts;
  project = a.project;
  last_attempt = a.number;
  last_time = a.time;
  if (a.golden && a.golden->status == "passed") {
    ++golden_passed;
    last_golden_pass = a.number;
  } else if (a.golden && a.golden->ran()) {
    ++golden_failed;
  }
  if (a.golden)
    if (auto e = a.golden->maxAbsErr(); e && (!best_max_abs_err || *e < *best_max_abs_err)) best_max_abs_err = e;
  std::vector<std::string> seen;
  for (const Finding& f : a.findings)
    if (std::find(seen.begin(), seen.end(), f.rule) == seen.end()) seen.push_back(f.rule);
  for (const std::string& r : seen) ++rules[r];
}

void FoldedSummary::merge(const FoldedSummary& older) {
  if (older.attempts == 0) return;
  if (attempts == 0) {
    *this = older;
    return;
  }
  attempts += older.attempts;
  first_attempt = older.first_attempt;
  first_time = older.first_time;
  golden_passed += older.golden_passed;
  golden_failed += older.golden_failed;
  if (last_golden_pass == 0) last_golden_pass = older.last_golden_pass;
  if (older.best_max_abs_err && (!best_max_abs_err || *older.best_max_abs_err < *best_max_abs_err))
    best_max_abs_err = older.best_max_abs_err;
  for (const auto& [rule, n] : older.rules) rules[rule] += n;
}

std::string stageOf(const std::string& rule, Stage source) {
  switch (source) {
    case Stage::Lint:
    case Stage::Estimator: return "lint";
    case Stage::Compiler: return startsWith(rule, "ISA") ? "kernel-compile" : "compile";
    case Stage::Runtime:
    case Stage::Golden: return "run";
    default: return "";
  }
}

}  // namespace portcheck::ledger
