#pragma once
// projects/<name>/.port-check/ledger.jsonl: one JSON record per line, appended whole by one write(2)
// under the project's ledger lock (core/file_lock.h), so concurrent port-check processes never
// interleave. A line that is not a record is skipped and reported, never fatal. Bounded: past
// max_attempts the oldest attempts fold into one summary record (docs/ledger.md#bounds).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "ledger/attempt.h"

namespace portcheck::ledger {

inline constexpr int kDefaultMaxAttempts = 200;

// The files of a project's ledger folder.
struct LedgerPaths {
  std::filesystem::path dir;       // <project>/.port-check
  std::filesystem::path ledger;    // ledger.jsonl
  std::filesystem::path lock;      // ledger.lock
  std::filesystem::path snapshot;  // snapshot.json
};
LedgerPaths ledgerPaths(const std::filesystem::path& project_dir);

// Creates the folder with a `.gitignore` of `*` in it, so git never shows it.
bool prepareLedgerDir(const std::filesystem::path& dir, std::string& error);

struct LedgerHistory {
  std::optional<FoldedSummary> summary;  // the attempts folded away, when any
  std::vector<Attempt> attempts;         // oldest first
  int nextNumber() const;
};

// Removes the records of another project from `history`: a ledger copied along with its project folder
// (`cp -r`) holds the original's attempts, which this project never made. Records say their project
// (workspace-relative); a summary from before summaries did is kept. Returns how many were removed and
// names the first other project in `other`.
int removeForeignRecords(LedgerHistory& history, const std::string& project, std::string& other);
// The TOOL007 warning for removed foreign records.
Diagnostic foreignRecordsWarning(const std::string& project, int count, const std::string& other);

struct SkippedLine {
  int line = 0;  // 1-based line of ledger.jsonl
  std::string why;
};

struct LedgerRead {
  bool exists = false;
  LedgerHistory history;
  std::vector<SkippedLine> skipped;
};

LedgerRead parseLedger(std::string_view text);

// The ledger file's path as diagnostics show it: <project>/.port-check/ledger.jsonl.
std::string ledgerDisplayPath(const std::string& project);
// TOOL007 warnings for the skipped lines of a ledger read.
std::vector<Diagnostic> skippedLineWarnings(const std::string& project, const std::vector<SkippedLine>& skipped);
// An absent file is an empty ledger; an unreadable one is reported in `error`.
LedgerRead readLedger(const std::filesystem::path& file, std::string& error);

// Appends `line` (one record and its newline) with a single write; when the file does not end in a
// newline (a line cut off by a crash), a newline goes first, so the new record stays readable.
bool appendLine(const std::filesystem::path& file, const std::string& line, std::string& error);

// When `history` holds more than `max_attempts` attempts, folds the oldest into its summary and
// rewrites the file atomically with the summary first (skipped lines are dropped then). Returns
// false only when the rewrite failed.
// Writes `history` as the whole file, atomically: its summary first, then its attempts (repeats
// already folded into them).
bool rewriteLedger(const std::filesystem::path& file, const LedgerHistory& history, std::string& error);

bool foldOldAttempts(const std::filesystem::path& file, LedgerHistory& history, int max_attempts, std::string& error);

}  // namespace portcheck::ledger
