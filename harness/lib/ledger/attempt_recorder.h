#pragma once
// Recording an attempt: with the project's ledger lock held (core/file_lock.h on ledger.lock), read the
// history, number the attempt and diff it against the snapshot of the previous one, run the loop
// rules; then, once the command knows its exit status, append the record, fold past the bound and
// keep the new snapshot. Problems are TOOL007 warnings: the attempt may go unrecorded, the command
// still succeeds.
//
// A re-run of the newest attempt's inputs (same sources, same toolchain) is not a new attempt: it is
// appended as a "repeat" record of that attempt, which then shows the re-run's outcome. Records of
// another project (a ledger copied along with its folder) are ignored, reported once, and dropped
// from the file when the attempt is recorded.
#include <filesystem>
#include <vector>

#include "core/diagnostic.h"
#include "ledger/attempt.h"
#include "ledger/code_spans.h"
#include "ledger/ledger_file.h"
#include "ledger/loop_check.h"
#include "ledger/project_sources.h"
#include "ledger/source_snapshot.h"

namespace portcheck::ledger {

struct PendingAttempt {
  LedgerPaths paths;
  LedgerHistory history;
  Attempt attempt;                      // as the ledger will show it (a repeat: the attempt it repeats, updated)
  bool repeat = false;                  // an identical re-run of history.attempts.back()
  Attempt rerun;                        // a repeat: the re-run itself, numbered as the attempt it repeats
  bool drop_foreign = false;            // the file holds another project's records: rewrite it without them
  Snapshot snapshot;                    // of this attempt's files, stored at commit
  std::vector<Diagnostic> loop;         // the loop rules' findings on this attempt
  std::vector<Diagnostic> problems;     // TOOL007
  bool writable = true;                 // false: the folder or the ledger cannot be used; commit writes nothing
};

// Call with the lock on ledgerPaths(project_dir).lock held until commitAttempt returns.
PendingAttempt prepareAttempt(const std::filesystem::path& project_dir, Attempt attempt,
                              const ProjectSources& sources, const std::vector<CodeSpan>& spans,
                              const LoopSettings& settings);

// Stores the attempt with `exit_code`; problems are added to pending.problems.
void commitAttempt(PendingAttempt& pending, int exit_code, int max_attempts);

}  // namespace portcheck::ledger
