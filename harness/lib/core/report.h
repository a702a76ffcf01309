#pragma once
// Everything one port-check run found: diagnostics, the SRAM table and what ran. Stages append,
// emitters read.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostic.h"

namespace portcheck {

// One tile that takes part in a function's SRAM use.
struct SramTile {
  std::string name;
  std::int64_t bytes = 0;
  std::string file;
  int line = 0;
};

// One (function, memory space) row of the SRAM table.
struct SramRow {
  std::string project;     // project or program the function belongs to
  std::string function;    // kernel name as the compiler names it
  std::string core;        // AIV, AIC, InCore or empty
  std::string space;       // Vec, Mat, Left, Right, Acc, ...
  std::optional<std::int64_t> estimate;  // port-check's estimate from source
  // Set when the estimate is another kernel's: the compiler's copy <name>_<k> of one kernel (unrolled,
  // instanced) without an estimate of its own takes <name>'s, and this names it.
  std::string estimate_from;
  std::optional<std::int64_t> actual;    // the compiler's high-water mark (AllocateMemoryAddr)
  // Where `actual` came from: "compile" (the compile stage of this run, replayed from the cache or
  // not), "cache" (port-check report read an earlier compile of the same sources from the compile
  // cache without compiling); empty when there is no actual figure.
  std::string actual_source;
  std::int64_t capacity = 0;
  int tiles = 0;
  std::vector<SramTile> largest;  // largest tiles first
};

// One output tensor of a simulator run compared with the golden (docs/run-stage.md). Comparison
// follows torch.allclose: an element is out of tolerance when |actual - expected| > atol + rtol *
// |expected|, or when either is NaN.
struct GoldenOutput {
  std::string name;
  std::string verdict;                 // pass, mismatch, never_written, shape_mismatch, not_a_tensor
  bool passed = false;
  std::string dtype;                   // of the actual tensor, e.g. "float32"
  std::vector<std::int64_t> shape;     // actual
  std::vector<std::int64_t> expected_shape;
  std::int64_t elements = 0;
  std::int64_t mismatches = 0;         // elements out of tolerance
  double mismatch_share = 0;           // mismatches / elements
  std::optional<double> max_abs_err;   // over the pairs where both values are finite
  std::optional<double> max_rel_err;   // |a - e| / |e| over finite pairs with e != 0
  std::vector<std::int64_t> first_mismatch;  // row-major first index out of tolerance; empty when none
  std::string first_actual;            // the values there, as Python prints them ("nan", "0.125")
  std::string first_expected;
  std::vector<std::int64_t> worst_index;     // where max_abs_err is reached
  std::int64_t nan_actual = 0, inf_actual = 0, nan_expected = 0, inf_expected = 0;
  bool never_written = false;          // all zero where the golden is not: the output was never stored
  double rtol = 0, atol = 0;
  std::string tolerance_source;        // "TOLERANCES" (golden.py's pair for this output), "golden.py" or "default"
  // Contract runs (docs/contract.md): the case and seed compared ("large/7"; empty outside a contract),
  // the comparator and what it found beside allclose, and the error statistics.
  std::string case_id;
  std::string comparator;              // allclose, pass_rate, max_steps
  std::optional<double> pass_rate;     // pass_rate: the share required
  std::optional<double> close_share;   // the share of elements within (rtol, atol)
  std::vector<std::pair<std::string, std::int64_t>> max_steps;  // max_steps: bound per step count ("1" -> 16)
  std::vector<std::pair<std::string, std::int64_t>> steps;      // max_steps: elements off by k steps, as found
  std::optional<double> mean_abs_err, mean_rel_err, cosine;
  std::vector<std::pair<std::string, std::int64_t>> ulp_histogram;  // "0", "1", "2-3", ... -> elements
};

// One case of a correctness contract, under one seed (docs/contract.md §2).
struct GoldenCase {
  std::string id;                      // "large"
  std::string category;                // base, tail, prime, edge, small, large, asymmetric, zero, inf, neg_inf, nan
  std::int64_t seed = 0;
  bool passed = false;
  std::string status;                  // ok, or the failing status (golden_error, run_error, ...)
  std::string frozen;                  // saved, replayed, or empty
  double seconds = 0;
  std::vector<GoldenOutput> outputs;
  std::string label() const { return id + "/" + std::to_string(seed); }
};

// What the checks against gamed goldens saw over a contract's runs (GOLD020-GOLD023, docs/contract.md §5).
struct GoldenGamingFinding {
  std::string rule;                    // GOLD020 ... GOLD023
  std::string output;                  // the output (or, for GOLD023, the tensor whose guard changed)
  std::string input;                   // GOLD021: the input it copies
  std::vector<std::string> cases;      // "base/7", ...
  std::string detail;
  std::int64_t bytes_changed = 0;      // GOLD023
  std::int64_t first_offset = 0;       // GOLD023: bytes from the tensor's edge
  std::string side;                    // GOLD023: before / after
  // GOLD023 seen in the port's IR run in torch (source "ir"; empty: the guard zones): the kernel whose
  // stores reach past the tensor, how many, and the store's line.
  std::string source;
  std::string kernel;
  std::int64_t stores = 0;
  std::string file;
  int line = 0;
};

// Where a failing case first goes wrong (docs/first-wrong-task.md): the port's IR run in torch judged by
// the golden, and each simulated task compared with its kernel's torch replay on the task's own inputs.
struct FirstWrongTask {
  std::optional<std::int64_t> index;   // the task's position in submission order (none: no task wrote it)
  std::string task_id;                 // the runtime's task id, when found in the simulator's dump
  std::string kernel;                  // the kernel (or mixed group) of the task
  std::string file;                    // its source, workspace-relative where it lies in the workspace
  int line = 0;                        // the store into `param` (else the kernel's def line)
  std::string param;                   // the kernel parameter written wrongly
  std::string output;                  // port_bug: the entry output whose wrong elements it wrote
  std::map<std::string, std::string> scalars;  // the task's scalar arguments, by parameter name
  std::int64_t mismatches = 0;
  std::int64_t elements = 0;
  std::int64_t never_written = 0;      // port_bug: wrong elements no task wrote
  std::vector<std::int64_t> first_index;
  std::optional<double> max_abs_err;
  std::optional<double> simulated, replayed;  // toolchain: the first differing element, both ways
  std::string dtype;
  std::string self_test;               // toolchain: the doctor --run self-test of this kind of kernel
};

struct RunLocalisation {
  std::string case_label;              // "base/7", "default" for a run without a contract
  std::string verdict;                 // port_bug, toolchain, orchestration, undetermined
  std::optional<bool> ir_passed;       // the IR's torch run judged by the golden (none: it did not run)
  std::int64_t ir_calls = 0;
  std::optional<std::int64_t> tasks;
  std::int64_t tasks_compared = 0;
  std::optional<FirstWrongTask> first;
  std::vector<std::string> notes;
  double seconds = 0;
};

// One program run on the simulator (a2a3sim / a5sim) and compared with its golden.
struct GoldenRun {
  std::string project;
  std::string platform;                // "a2a3sim" / "a5sim"
  std::string status;                  // passed, failed (an output differs), error (no comparison), skipped
  std::string failure;                 // for error/skipped: the failure class, e.g. "runtime-not-installed"
  std::string rule;                    // the diagnostic that says why, e.g. "GOLD010"; "" when passed
  std::string detail;                  // one line
  int seed = 0;
  double rtol = 0, atol = 0;
  std::string tolerance_source;        // "golden.py" or "default"
  double seconds = 0;
  std::string out_dir;                 // display path of the run's output folder
  std::vector<GoldenOutput> outputs;
  bool replayed = false;               // a passed run replayed from the run cache (golden/run_cache.h)
  // The correctness contract (docs/contract.md), when golden.py declares one: every case under every
  // seed, the case that failed first ("large/7"), and what the checks against gamed goldens found.
  bool contract = false;
  std::string contract_kind;
  std::vector<std::int64_t> seeds;
  std::vector<GoldenCase> cases;
  std::string failed_case;
  std::vector<GoldenGamingFinding> gaming;
  std::optional<RunLocalisation> localisation;  // the first failing case run's, when the run looked
};

// One kernel's tasks in the device-time model (perf/device_schedule.h): its largest task's time per
// pipe and in all, the pipe that bounds it, and its tasks' time in all and on the critical path (µs).
struct KernelTime {
  std::string kernel;
  std::string core;                              // AIV, AIC or MIX
  std::int64_t tasks = 0;
  double task_us = 0;                            // the largest task
  std::string bound;                             // MTE2, MTE1, CUBE, FIXP, VECTOR, MTE3 or SCALAR
  double mte2_us = 0, mte1_us = 0, cube_us = 0, fixp_us = 0, vector_us = 0, mte3_us = 0, scalar_us = 0;
  double busy_us = 0;                            // every task's time summed (core-µs)
  double start_us = 0, end_us = 0;               // its first task's start, its last task's end
  double critical_us = 0;                        // its tasks' time on the critical path
};

// A stretch of the critical path in one kernel's tasks; `waits`: what its first task waited for
// ("submit", "core", or the producer kernel).
struct CriticalStepRow {
  std::string kernel;
  std::int64_t tasks = 0;
  double us = 0;
  std::string waits;
};

// One task on the timeline of the HTML report.
struct TimelineBar {
  std::string kernel;
  std::string lane;                              // "AIV 3", "AIC 0", "cluster 2"
  double start_us = 0, end_us = 0;
  bool critical = false;
};

// What one run of a port's schedule costs, counted from the source (cost/schedule_cost.h): kernels,
// tasks its orchestration dispatches, bytes its kernels move through GM, and those on the critical path;
// and the device-time model's estimate of the run (docs/perf-model.md).
struct ScheduleRow {
  std::string project;                           // project or program
  int kernels = 0;                               // distinct kernels dispatched (a split kernel counts once)
  std::optional<std::int64_t> tasks;             // nullopt: not static (see `unknown`)
  std::optional<std::int64_t> gm_bytes;
  std::optional<std::int64_t> critical_gm_bytes;
  std::vector<std::string> unknown;              // why a figure is unknown
  std::optional<double> device_us;               // estimated device time of one run; nullopt: not static
  double aic_utilisation = 0, aiv_utilisation = 0;
  std::string bound;                             // the pipe bounding the kernel longest on the critical path
  std::vector<KernelTime> kernel_times;          // one per dispatch site
  std::vector<CriticalStepRow> critical_path;
  std::vector<TimelineBar> timeline;             // HTML only (capped; the critical path always kept)
  int aic = 0, aiv = 0;                          // the platform's cores
};

enum class StageState { Ran, Skipped, Failed };

// What a stage did, e.g. {"compile", Skipped, "no PyPTO checkout found (looked in ../pypto)"}.
struct StageStatus {
  std::string name;
  StageState state = StageState::Ran;
  std::string detail;
};

struct RunInfo {
  std::string tool_version;
  std::string catalogue_version;
  std::string platform;
  std::string toolchain;  // e.g. "pypto e2d0f78a at ../pypto" or "not found"
  std::vector<StageStatus> stages;
  std::vector<std::string> files;  // every file checked, workspace-relative
  double seconds = 0;
  std::string automation_id;       // SARIF runAutomationDetails.id of a --shard run; empty otherwise
};

struct Report {
  RunInfo run;
  std::vector<Diagnostic> diagnostics;
  std::vector<SramRow> sram;
  std::vector<GoldenRun> golden;  // the run stage, one entry per program run (or skipped)
  std::vector<ScheduleRow> schedule;  // port-check report: the cost of each unit's schedule

  void add(Diagnostic d) { diagnostics.push_back(std::move(d)); }
  void append(std::vector<Diagnostic> ds);
  // Sorts diagnostics and files deterministically and drops exact duplicates.
  void finalize();
  int count(Severity s) const;
};

std::string_view toString(StageState s);

}  // namespace portcheck
