#pragma once
// What one task of a kernel asks of each pipe of an AI core, counted from the source model: the bytes
// its loads move GM -> on-chip (MTE2) and its stores on-chip -> GM (MTE3), the matmul operand bytes
// L1 -> L0 (MTE1) and result bytes out of the accumulator (FIXP), the cube's multiply-accumulates by
// operand precision, the vector unit's cycles (perf/vector_cycles.h), and the tile instructions issued. Each counted
// once per trip of the loops around it inside the kernel (docs/perf-model.md).
#include <cstdint>
#include <optional>
#include <string>

#include "cost/trip_counts.h"
#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"

namespace portcheck::cost {

struct KernelWork {
  std::int64_t mte2_bytes = 0;      // GM -> UB / L1: pl.load, implicit operand loads, subscript reads
  std::int64_t mte3_bytes = 0;      // UB -> GM: pl.store, pl.assemble into GM, subscript writes
  std::int64_t mte1_bytes = 0;      // L1 -> L0A / L0B: the matmul operands, pl.move between on-chip buffers
  std::int64_t fixp_bytes = 0;      // L0C -> out: the matmul results, pl.move out of the accumulator
  std::int64_t cube_macs_b16 = 0;   // multiply-accumulates with FP16 / BF16 operands
  std::int64_t cube_macs_b8 = 0;    // with INT8 / FP8 / HF8 operands
  std::int64_t cube_macs_b32 = 0;   // with FP32 operands
  double vector_cycles = 0;         // the vector unit's cycles, each instruction's fixed cost included
  double vector_fixed_cycles = 0;   // of which the instructions' fixed costs
  std::int64_t instructions = 0;    // tile instructions issued (each has a start-up cost)
  std::int64_t iterations = 1;      // body instances of the kernel's outermost loop nest (pipelining depth)

  std::int64_t gmBytes() const { return mte2_bytes + mte3_bytes; }
  KernelWork& operator+=(const KernelWork& o);
};

// The work of one of `parts` equal tasks `work` is split into (its blocks spread over more cores).
KernelWork splitWork(const KernelWork& work, std::int64_t parts);

// The same work with tiles `factor` times larger: the bytes and elements stay, the instructions, loop
// iterations and the vector instructions' fixed costs divide.
KernelWork grownTiles(const KernelWork& work, std::int64_t factor);

// A rough serial time of `work` in µs on a2a3 (every pipe one after the other, no overlap): what decides
// the larger of two exclusive branches.
double serialMicros(const KernelWork& work);

// One task's work of `kernel` with the loop variables and scalar parameters of `env`; nullopt with
// `why` when a loop in it has no known trip count or a moved tile has no static size. An `if` / `else`
// decided by run-time data counts its larger branch (serialMicros), not both.
std::optional<KernelWork> kernelWork(const dsl::ProgramModel& model, const sram::KernelEstimate& kernel,
                                     std::string& why, const Env& env = {});

}  // namespace portcheck::cost
