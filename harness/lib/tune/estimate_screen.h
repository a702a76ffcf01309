#pragma once
// The estimator's verdict on one configuration, before any compile: the port rebuilt with the
// configuration's constants and every kernel estimated. Over a space's capacity anywhere: pruned
// (with the kernel and space that overflow). Otherwise the binding space, the one used most.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/platform.h"
#include "core/source_file.h"
#include "cost/trip_counts.h"
#include "tune/config_space.h"

namespace portcheck::tune {

struct Screened {
  Config config;
  bool fits = true;
  std::string binding;        // "kernel/Space" used most (of its capacity)
  double use = 0;             // that use, 0..1 (above 1 when it does not fit)
  std::int64_t bytes = 0;     // its estimate
  std::int64_t capacity = 0;
  bool current = false;       // the port as it is
  int kernels = 0;            // kernels estimated
  // The schedule's cost (cost/schedule_cost.h): dispatches and GM bytes of one run; nullopt: not static.
  std::optional<std::int64_t> tasks;
  std::optional<std::int64_t> gm_bytes;
  std::optional<std::int64_t> critical_gm_bytes;  // GM bytes on the critical path (cost/schedule_cost.h)
  std::optional<double> device_us;  // the device-time model's estimate of one run (docs/perf-model.md)
  std::vector<std::string> cost_unknown;
  std::string pruned;         // why the estimate pruned it ("" = a survivor)
  // The compiler's verdict, for a configuration that fits and was compiled (tune_command.cpp).
  bool compiled = false;
  std::string status;         // the compile's status: ok, compile_error, ... ("" = not compiled)
  bool cached = false;        // replayed from the compile cache
  int errors = 0;             // error findings of the compile
  int hints = 0;              // the compiler's performance hints (PERF001)
  std::string actual_binding; // "kernel/Space" the compiler's figures fill most
  double actual_use = 0;
  std::int64_t actual_bytes = 0;
  // The golden on the simulator, for the best configurations (--run K).
  bool ran = false;
  std::string golden;         // passed, failed, error, skipped (GoldenRun::status)
  std::string golden_detail;  // one line: the rule and what differed
  double sim_seconds = 0;
};

// `run_files`: the port's own files (their orchestration is the run whose cost is counted).
// `assumed`: run-time values (--assume) for the schedule's counts and the device time.
Screened screen(std::span<const SourceFile> files, const Config& config, Platform platform,
                const std::vector<std::string>& run_files = {}, const cost::Env& assumed = {});

}  // namespace portcheck::tune
