#pragma once
// The orchestration task graph of a unit: in each orchestration-level function (orchestration,
// @pl.jit entry, opaque), the incore kernels it dispatches in program order (its pl.at scopes and its
// calls to InCore functions), with the GM tensors each one loads and stores (named as the caller
// names them) and the producer -> consumer edges between them.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"

namespace portcheck::advice {

struct Task {
  std::string kernel;             // kernel name (without _aic / _aiv)
  std::vector<int> estimates;     // indices into the kernel estimates (two for a split kernel)
  std::string file;
  int line = 0;
  int stmt = -1;                  // the dispatching statement in the caller
  int enclosing_loop = -1;        // innermost loop statement of the caller around it
  std::vector<std::string> reads;   // GM tensors it loads (caller names)
  std::vector<std::string> writes;  // GM tensors it stores to (caller names)
  std::map<std::string, std::string> to_caller;  // an InCore function's parameter -> the caller's tensor

  // The caller's name of a tensor the kernel names `local`.
  std::string callerName(const std::string& local) const {
    auto it = to_caller.find(local);
    return it != to_caller.end() ? it->second : local;
  }
};

struct Edge {
  int from = -1, to = -1;         // task indices
  std::string tensor;             // the GM tensor passed
  std::int64_t bytes = 0;         // bytes stored by the producer + loaded by the consumer, in the GM
                                  // tensor's element type (an FP32 tile stored as BF16 counts 2 B each)
};

struct TaskGraph {
  std::string caller;             // the orchestration-level function
  int file_index = -1, function_index = -1;
  std::vector<Task> tasks;
  std::vector<Edge> edges;
};

// Per-space estimate of the producer and consumer kernels fused into one (consumer after producer,
// the consumer's load of `tensor` replaced by the producer's tile kept on chip). Only for kernels that
// are not split into cube and vector halves; empty otherwise.
std::vector<sram::SpaceEstimate> fusedEstimate(const std::vector<sram::KernelEstimate>& kernels, const Task& producer,
                                               const Task& consumer, const std::string& tensor, Platform platform);

// Which cores the kernel estimates use: cube spaces (Mat, Left, Right, Acc, Bias), the vector space (Vec).
struct CoreUse {
  bool cube = false;
  bool vector = false;
};
CoreUse coreUse(const std::vector<sram::KernelEstimate>& kernels, const std::vector<int>& estimates);

// "AIC" when the task's kernel uses only cube spaces (Mat, Left, Right, Acc, Bias), "AIV" when only Vec,
// "" when both (a mixed kernel) or neither.
std::string coreOf(const std::vector<sram::KernelEstimate>& kernels, const Task& task);

// Per-space estimate of a cube and a vector kernel fused into one mixed scope, the hand-off of `tensor`
// through a cross-core pipe (TPUSH / TPOP): each side keeps its own tiles on its own core, and the
// consumer's load of `tensor` becomes the pipe's ring in the consumer's memory, `slots` tiles deep
// (pypto-language-and-runtime.md §6: the ring lives in the consumer's SRAM, 2 slots by default).
// `ring_space`, when given, receives the space the ring is in.
std::vector<sram::SpaceEstimate> crossCoreEstimate(const std::vector<sram::KernelEstimate>& kernels,
                                                   const Task& producer, const Task& consumer,
                                                   const std::string& tensor, Platform platform, int slots = 2,
                                                   std::string* ring_space = nullptr);

// Per-space estimate of several kernels merged into one scope, one after the other (no hand-off).
// Only for kernels that are not split; empty otherwise.
std::vector<sram::SpaceEstimate> mergedEstimate(const std::vector<sram::KernelEstimate>& kernels,
                                                const std::vector<const Task*>& tasks, Platform platform);

// The space closest to its capacity (nullptr when none has a capacity).
const sram::SpaceEstimate* dominantSpace(const std::vector<sram::SpaceEstimate>& spaces);

std::vector<TaskGraph> buildTaskGraphs(const dsl::ProgramModel& model,
                                       const std::vector<sram::KernelEstimate>& kernels);

}  // namespace portcheck::advice
