#pragma once
// The score of one attempt at an eval task (docs/evals.md): each check in order, the first that fails is
// the verdict's reason. Read from the JSON reports of `verify` (the attempt against the task's reference)
// and `report` (both forms' device time), so the scorer sees what a user of those commands sees.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "evals/eval_task.h"

namespace portcheck::evals {

struct EvalCheck {
  std::string name;    // sources, lint, compile (a2a3), contract (a2a3sim), gaming, speed, ...
  std::string state;   // pass, fail, error (the check could not be made)
  std::string detail;  // one line
};

// What the attempt's own ledger says of how it was made (absent when it kept none).
struct LedgerSummary {
  int attempts = 0;
  double minutes = 0;                 // first attempt to last
  std::vector<std::string> rules;     // the rules of the newest attempt's findings, sorted, unique
};

struct EvalResult {
  std::string task, kind, attempt;    // attempt: the folder scored, as given
  std::string verdict;                // passed, failed, error (nothing could be judged: says why)
  std::string first_failing;          // the first check not passed; empty when passed
  std::string reason;                 // its detail
  std::vector<EvalCheck> checks;
  std::optional<double> attempt_us, naive_us;   // estimated device time (a2a3), docs/perf-model.md
  std::optional<double> speedup;                // naive_us / attempt_us
  std::optional<int> kernels, tasks;
  std::optional<LedgerSummary> ledger;
  double seconds = 0;
};

// `verify`: the verify report of the scratch workspace (the attempt as project `task.name`);
// `report`: the report of the attempt and the naive form (project `task.name + "_naive"`).
EvalResult scoreAttempt(const EvalTask& task, const std::string& attempt_display, const nlohmann::json& verify,
                        const nlohmann::json& report, const std::vector<std::string>& platforms);

// The attempt's ledger (ATTEMPT/.port-check/ledger.jsonl), when it has one.
std::optional<LedgerSummary> readAttemptLedger(const std::filesystem::path& attempt_dir);

nlohmann::json toJson(const EvalResult& r);
std::string toText(const std::vector<EvalResult>& results);

}  // namespace portcheck::evals
