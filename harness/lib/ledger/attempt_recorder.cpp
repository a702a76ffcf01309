#include "ledger/attempt_recorder.h"

#include "ledger/attempt_json.h"
#include "rules/catalogue.h"

namespace portcheck::ledger {

PendingAttempt prepareAttempt(const std::filesystem::path& project_dir, Attempt attempt,
                              const ProjectSources& sources, const std::vector<CodeSpan>& spans,
                              const LoopSettings& settings) {
  PendingAttempt p;
  p.paths = ledgerPaths(project_dir);
  std::string error;
  if (!prepareLedgerDir(p.paths.dir, error)) p.writable = false;
  LedgerRead read = readLedger(p.paths.ledger, error);
  if (!error.empty()) p.writable = false;
  if (!p.writable)
    p.problems.push_back(makeDiagnostic("TOOL007", ledgerDisplayPath(attempt.project), 0, 0,
                                        "the attempt is not recorded: " + error));
  for (Diagnostic& d : skippedLineWarnings(attempt.project, read.skipped)) p.problems.push_back(std::move(d));
  p.history = std::move(read.history);
  attempt.number = p.history.nextNumber();
  // Lines are compared with the previous attempt's snapshot only; without it there is nothing to compare.
  std::optional<Snapshot> before = readSnapshot(p.paths.snapshot);
  if (before && before->attempt == attempt.number - 1) {
    attempt.changes = changesSince(*before, sources);
    attributeChanges(*attempt.changes, spans);
  }
  p.snapshot = takeSnapshot(sources, attempt.number);
  p.attempt = std::move(attempt);
  const FoldedSummary* folded = p.history.summary ? &*p.history.summary : nullptr;
  p.loop = runLoopChecks({p.history.attempts, folded, p.attempt, settings});
  return p;
}

void commitAttempt(PendingAttempt& p, int exit_code, int max_attempts) {
  if (!p.writable) return;
  p.attempt.exit_code = exit_code;
  std::string error;
  auto problem = [&](const std::string& what) {
    p.problems.push_back(makeDiagnostic("TOOL007", ledgerDisplayPath(p.attempt.project), 0, 0, what + ": " + error));
  };
  if (!appendLine(p.paths.ledger, recordLine(attemptToJson(p.attempt)), error)) {
    problem("the attempt is not recorded");
    return;
  }
  p.history.attempts.push_back(p.attempt);
  error.clear();
  if (!foldOldAttempts(p.paths.ledger, p.history, max_attempts, error)) problem("cannot fold old attempts");
  error.clear();
  if (!writeSnapshot(p.paths.snapshot, p.snapshot, error))
    problem("cannot keep the files of attempt " + std::to_string(p.attempt.number) + " to compare the next one with");
}

}  // namespace portcheck::ledger
