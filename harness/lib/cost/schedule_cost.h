#pragma once
// What one run of a port's schedule costs, from the source model before any compile: the tasks its
// orchestration dispatches and the bytes its kernels move through GM (docs/tune.md, the cost model).
//
//  * tasks dispatched: each dispatch (a pl.at scope of an orchestration-level function, or a call of
//    an InCore function) counted once per trip of every loop around it in the orchestration
//    (pl.range, pl.parallel, pl.spmd, ...; a loop whose bounds are an outer loop's variable, once per
//    value it takes);
//  * GM bytes moved: per kernel, every pl.load and pl.store and every pl.assemble into a GM tensor
//    (the tile's elements in the GM tensor's element type), every implicit load of a GM tensor operand
//    of a tensor-level op and every subscript read or write of a GM tensor, each counted once per trip
//    of the loops around it inside the kernel; times the kernel's dispatches;
//  * GM bytes on the critical path: the tasks of one dispatch site run in waves of at most one per
//    core of their kind (a vector kernel on the AIVs, a cube or mixed one on the AICs, one per
//    cluster), each core streaming its task's bytes; per site, the waves times the bytes of a task,
//    summed over the sites as if they ran one after the other. Fewer, larger tasks move fewer bytes in
//    all but can leave cores idle: this is the figure that sees it.
//
// A loop in a kernel whose trip count is a loop variable of the run, or a scalar the task is called
// with (causal attention's `for kb in pl.range(qb + 1)`), is counted task by task under the values of
// the loops around the dispatch (up to 65536 tasks); the critical path then takes the largest task's
// bytes. A loop whose trip count is not known even so (runtime data: `pl.tensor.read`) makes the
// figure it multiplies unknown; what made it so is listed, so a ranking never compares a guess with a
// count.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "advice/task_graph.h"
#include "cost/kernel_work.h"
#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"

namespace portcheck::cost {

// A dispatch site this one waits for: the task of the same trip (`pairwise`), else all its tasks.
struct SiteDependency {
  int site = -1;                        // index into ScheduleCost::kernels
  bool pairwise = false;
};

// One dispatch site: a kernel and the tasks one run dispatches of it there.
struct KernelCost {
  std::string kernel;                   // the compiler's name (a split kernel: without _aic / _aiv)
  std::optional<std::int64_t> dispatches;
  std::int64_t blocks = 1;              // tasks one submit launches: a pl.spmd(n) dispatch's n blocks
  std::optional<std::int64_t> gm_bytes_per_task;
  int cores = 0;                        // cores its tasks spread over (AIV, or AIC for cube and mixed)
  std::string core;                     // AIV, AIC or MIX (a cluster of one AIC and its AIVs)
  std::optional<KernelWork> work_per_task;  // the largest task's work; nullopt: not static
  std::vector<KernelWork> task_work;    // each task's, when they differ (in dispatch order); else empty
  int graph = -1;                       // the orchestration function dispatching it (in dispatch order)
  int enclosing_loop = -1;              // the loop statement of the caller around the dispatch
  std::vector<SiteDependency> after;    // the sites whose outputs it reads
  std::vector<int> estimates;           // its kernel estimates (two for a split kernel)
};

struct ScheduleCost {
  std::optional<std::int64_t> tasks;     // dispatches of one run; nullopt: not static
  std::optional<std::int64_t> gm_bytes;  // bytes loaded + stored by the kernels in one run
  std::optional<std::int64_t> critical_gm_bytes;  // bytes on the critical path (waves x bytes per task)
  std::vector<KernelCost> kernels;
  std::vector<std::string> unknown;      // why a figure is unknown ("trip count of the loop at x.py:12")
};

// The cost of the program's schedule; `kernels` are its estimates (estimateProgram). `entry_files`
// (paths as in the model; empty: every file) are the files whose orchestration-level functions are the
// run: a library block's own test entry in an imported file is not part of the port's run.
ScheduleCost scheduleCost(const dsl::ProgramModel& model, const std::vector<sram::KernelEstimate>& kernels,
                          Platform platform, const std::vector<std::string>& entry_files = {});

// The bytes a kernel moves through GM in one dispatch (see above); nullopt with `why` when a loop in
// it has no static trip count or a moved tile has no static size.
std::optional<std::int64_t> kernelGmBytes(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                          std::string& why);

}  // namespace portcheck::cost
