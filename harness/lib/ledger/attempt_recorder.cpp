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
  std::string other;
  if (int foreign = removeForeignRecords(p.history, attempt.project, other); foreign > 0) {
    p.problems.push_back(foreignRecordsWarning(attempt.project, foreign, other));
    p.drop_foreign = true;
  }
  const Attempt* previous = p.history.attempts.empty() ? nullptr : &p.history.attempts.back();
  std::span<const Attempt> earlier(p.history.attempts);
  if (previous && previous->sameInputs(attempt)) {
    // A re-run: the loop rules judge the attempt it repeats, with its outcome updated, against the ones before.
    p.repeat = true;
    attempt.number = previous->number;
    p.rerun = attempt;
    Attempt updated = *previous;
    updated.absorbRepeat(attempt);
    attempt = std::move(updated);
    earlier = earlier.first(earlier.size() - 1);
  } else {
    attempt.number = p.history.nextNumber();
    attempt.toolchain_changed = previous && !previous->toolchain.empty() && previous->toolchain != attempt.toolchain;
    // Lines are compared with the previous attempt's snapshot only; without it there is nothing to compare.
    std::optional<Snapshot> before = p.drop_foreign ? std::nullopt : readSnapshot(p.paths.snapshot);
    if (before && before->attempt == attempt.number - 1) {
      attempt.changes = changesSince(*before, sources);
      attributeChanges(*attempt.changes, spans);
    }
    p.snapshot = takeSnapshot(sources, attempt.number);
  }
  p.attempt = std::move(attempt);
  const FoldedSummary* folded = p.history.summary ? &*p.history.summary : nullptr;
  p.loop = runLoopChecks({earlier, folded, p.attempt, settings});
  return p;
}

void commitAttempt(PendingAttempt& p, int exit_code, int max_attempts) {
  if (!p.writable) return;
  p.attempt.exit_code = exit_code;
  p.rerun.exit_code = exit_code;
  std::string error;
  auto problem = [&](const std::string& what) {
    p.problems.push_back(makeDiagnostic("TOOL007", ledgerDisplayPath(p.attempt.project), 0, 0, what + ": " + error));
  };
  if (p.repeat) p.history.attempts.back() = p.attempt;
  else p.history.attempts.push_back(p.attempt);
  if (p.drop_foreign) {
    // The copied records go; this project's history is written whole, the new record with it.
    if (!rewriteLedger(p.paths.ledger, p.history, error)) {
      problem("the attempt is not recorded");
      return;
    }
  } else if (!appendLine(p.paths.ledger, recordLine(p.repeat ? repeatToJson(p.rerun) : attemptToJson(p.attempt)), error)) {
    problem("the attempt is not recorded");
    return;
  }
  error.clear();
  if (!foldOldAttempts(p.paths.ledger, p.history, max_attempts, error)) problem("cannot fold old attempts");
  if (p.repeat) return;  // the snapshot of the attempt it repeats stays
  error.clear();
  if (!writeSnapshot(p.paths.snapshot, p.snapshot, error))
    problem("cannot keep the files of attempt " + std::to_string(p.attempt.number) + " to compare the next one with");
}

}  // namespace portcheck::ledger
