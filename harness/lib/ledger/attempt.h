#pragma once
// One attempt of the porting loop: what a check, compile or run of a project saw, as one record of
// projects/<name>/.port-check/ledger.jsonl (docs/ledger.md), and the summary older attempts fold into.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "ledger/line_diff.h"

namespace portcheck::ledger {

// Version of the record format; a reader skips records of another version as unreadable.
inline constexpr int kRecordSchema = 1;

// A source file of the attempt and the SHA-1 of its bytes.
struct FileHash {
  std::string path;  // workspace-relative
  std::string hash;
};

// What changed in one file since the previous attempt.
struct FileChange {
  std::string file;                    // workspace-relative
  std::string status;                  // "added", "removed" or "modified"
  std::vector<Hunk> hunks;             // modified files whose previous text was kept
  bool lines_known = true;             // false: the previous text was not kept, only its hash differs
  std::vector<std::string> functions;  // functions the hunks touch (Python files)
  std::vector<std::string> kernels;    // incore kernels the hunks touch (regions, InCore functions, C++ kernels)
};

// A finding of the attempt, with the function it lies in, so it is recognised after lines shift.
struct Finding {
  std::string rule;
  Severity severity = Severity::Error;
  Stage source = Stage::Lint;
  std::string file;
  int line = 0;
  std::string function;  // enclosing function ("" when unknown: C++, file-level, no file)
  std::string message;

  // Identity across attempts: rule, file, function and the message with its numbers blanked, so a
  // finding moved by an edit above it, or whose figures changed, is still the same finding.
  std::string key() const;
};

// One (kernel, memory space) row of the SRAM table.
struct KernelSram {
  std::string kernel;
  std::string space;
  std::optional<std::int64_t> estimate;
  std::optional<std::int64_t> actual;
  std::int64_t capacity = 0;
  // actual when known, else the estimate, as a share of the capacity in percent; nullopt when neither
  std::optional<double> percent() const;
};

struct GoldenOutputFigures {
  std::string name;
  bool passed = false;
  std::string verdict;
  std::int64_t mismatches = 0;
  std::int64_t elements = 0;
  std::optional<double> max_abs_err;
  std::optional<double> max_rel_err;
  // The tolerance the run compared the output with (RTOL / ATOL, TOLERANCES or the contract's comparator);
  // nullopt in records written before the ledger kept it, and for comparators without one (max_steps).
  std::optional<double> rtol;
  std::optional<double> atol;
};

// The golden comparison of the attempt's simulator run.
struct GoldenOutcome {
  std::string status;    // passed, failed (an output differs), error (no comparison), skipped
  std::string platform;  // a2a3sim / a5sim
  std::string rule;      // the GOLD finding that says why; "" when passed
  std::string detail;
  std::vector<GoldenOutputFigures> outputs;
  // The largest absolute error over the outputs; nullopt when no output was compared.
  std::optional<double> maxAbsErr() const;
  bool ran() const { return status == "passed" || status == "failed" || status == "error"; }
};

struct StageRecord {
  std::string name;   // lint, kernel-compile, compile, run
  std::string state;  // ran, skipped, failed
  std::string detail;
};

struct Attempt {
  int number = 0;             // 1-based, never reused (folding keeps counting)
  std::string time;           // UTC, ISO 8601: 2026-11-25T09:30:00Z
  std::string command;        // check, check --run, compile, run
  int exit_code = 0;
  std::string platform;
  std::string tool_version;
  std::string project;        // workspace-relative project folder, e.g. projects/softmax
  std::string source_hash;    // of pypto_src/: every source path and its bytes
  std::string library_hash;   // of the pypto-lib files the port imports; "" when none
  // The toolchain the attempt ran with (toolchain/toolchain_identity.h): `toolchain` identifies it
  // (a hash; "" in records that predate it), `toolchain_text` says it for people.
  std::string toolchain;
  std::string toolchain_text;
  bool toolchain_changed = false;  // differs from the previous attempt's (the previous one had one)
  bool scaffold = false;           // recorded by `port-check new`: the skeleton as written, unedited
  int repeats = 0;                 // identical re-runs folded into this attempt (docs/ledger.md#repeats)
  std::vector<FileHash> files;
  // Since the previous attempt; nullopt when there is nothing to compare with (the first attempt).
  std::optional<std::vector<FileChange>> changes;
  std::vector<std::string> functions;  // functions and kernels the sources define (to tell new code)
  std::vector<StageRecord> stages;
  std::vector<Finding> findings;
  std::vector<KernelSram> sram;
  std::optional<GoldenOutcome> golden;

  bool stageRan(const std::string& name) const;
  bool hasFinding(const std::string& key) const;
  const Finding* finding(const std::string& key) const;
  bool definesFunction(const std::string& name) const;
  bool hasFile(const std::string& path) const;
  // True when `next` ran the same sources (pypto_src and the pypto-lib files) with the same toolchain:
  // a re-run, not a new attempt.
  bool sameInputs(const Attempt& next) const;
  // Takes the outcome of the re-run `next` (command, exit status, stages, findings, SRAM, golden when
  // it ran one) and counts it as a repeat; the number, the files and the change stay this attempt's.
  void absorbRepeat(const Attempt& next);
};

// The attempts folded out of a bounded ledger (docs/ledger.md#bounds), as one record.
struct FoldedSummary {
  std::string project;        // workspace-relative project folder of the attempts; "" in older records
  int attempts = 0;
  int first_attempt = 0, last_attempt = 0;
  std::string first_time, last_time;
  int golden_passed = 0;
  int golden_failed = 0;      // failed or error
  int last_golden_pass = 0;   // attempt number of the newest passing golden among them; 0 when none
  std::optional<double> best_max_abs_err;
  std::map<std::string, int> rules;  // attempts reporting each rule

  // Adds one attempt (folded in number order).
  void fold(const Attempt& a);
  void merge(const FoldedSummary& older);
};

// Which stage produces a finding of this rule and source: lint, kernel-compile, compile or run;
// "" for port-check's own problems.
std::string stageOf(const std::string& rule, Stage source);

}  // namespace portcheck::ledger
