#pragma once
// Attempts built in code for the ledger tests: a finding, a change, a golden run.
#include <string>
#include <vector>

#include "ledger/attempt.h"

namespace portcheck::ledger::test {

inline Finding finding(const std::string& rule, int line, const std::string& function, const std::string& message,
                       Severity severity = Severity::Error, Stage source = Stage::Lint,
                       const std::string& file = "projects/p/pypto_src/incore.py") {
  return {rule, severity, source, file, line, function, message};
}

inline FileChange change(std::vector<Hunk> hunks, std::vector<std::string> functions = {},
                         std::vector<std::string> kernels = {},
                         const std::string& file = "projects/p/pypto_src/incore.py") {
  return {file, "modified", std::move(hunks), true, std::move(functions), std::move(kernels)};
}

inline GoldenOutcome golden(const std::string& status, std::optional<double> max_abs_err = std::nullopt) {
  GoldenOutcome g;
  g.status = status;
  g.platform = "a2a3sim";
  g.rule = status == "passed" ? "" : status == "failed" ? "GOLD001" : "GOLD010";
  if (max_abs_err || status != "error")
    g.outputs.push_back({"out", status == "passed", status == "passed" ? "pass" : "mismatch",
                         status == "passed" ? 0 : 100, 1024, max_abs_err, std::nullopt});
  return g;
}

// Attempt `number` of projects/p by check --run, with golden.py, incore.py and the functions
// rows and helper; lint, compile and run ran.
inline Attempt attempt(int number, std::vector<Finding> findings = {},
                       std::optional<std::vector<FileChange>> changes = std::vector<FileChange>{},
                       std::optional<GoldenOutcome> g = std::nullopt) {
  Attempt a;
  a.number = number;
  a.time = "2026-11-25T09:" + std::string(number < 10 ? "0" : "") + std::to_string(number % 60) + ":00Z";
  a.command = "check --run";
  a.exit_code = findings.empty() ? 0 : 1;
  a.platform = "a2a3";
  a.project = "projects/p";
  a.source_hash = std::string(40, 'a');
  a.files = {{"projects/p/pypto_src/golden.py", std::string(40, 'b')},
             {"projects/p/pypto_src/incore.py", std::string(40, 'c')}};
  a.functions = {"helper", "rows", "rows_incore_0"};
  a.stages = {{"lint", "ran", ""}, {"compile", "ran", ""}, {"run", "ran", ""}};
  a.findings = std::move(findings);
  a.changes = std::move(changes);
  a.golden = std::move(g);
  return a;
}

}  // namespace portcheck::ledger::test
