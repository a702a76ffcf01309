#pragma once
// SRAM estimate from the DSL source model, before any compile: per incore kernel (an InCore function
// or a pl.at scope, named as the compiler will name it) and memory space, the tiles it holds, their
// live ranges and the high-water mark the compiler's MemoryReuse + AllocateMemoryAddr would reach.
//
// What is modelled (see docs/sram-estimator.md):
//  * every on-chip value of the kernel (tiles, and tensor-level compute inside incore code) with its
//    shape x element size; space from the type (Vec default, target_memory=, Acc for matmul results);
//  * implicit loads of tensor operands of tensor-level ops (Mat for matmul operands, Vec otherwise);
//  * AutoTileMatmulL0: a matmul whose operands sit in Mat gets Left / Right L0 tiles, K-chunked and
//    double-buffered when the whole K does not fit;
//  * mixed cube + vector kernels split into <name>_aic / <name>_aiv, the cross-core pipe ring
//    (slot = the crossing tile, slot_num 2 or pl.cross_core_slot) reserved at the bottom of the
//    receiving core's space, and pl.split halving the vector side's tiles;
//  * live ranges in evaluation order, a value read inside a loop it was defined outside of held for
//    the whole loop, loop-carried values to the end of their loop; first-fit-decreasing reuse.
#include <cstdint>
#include <string>
#include <vector>

#include "core/platform.h"
#include "core/report.h"
#include "dsl/dsl_model.h"
#include "sram/buffer_packer.h"

namespace portcheck::sram {

struct SpaceEstimate {
  std::string space;                // Vec, Mat, Left, Right, Acc, Bias
  std::int64_t hwm = 0;             // estimated high-water mark, reserved ring included
  std::int64_t reserved = 0;        // the cross-core pipe ring at the bottom of the space
  std::int64_t ring_slot = 0;       // bytes of one ring slot (reserved = ring_slot x slots)
  std::int64_t capacity = 0;        // platform capacity (0: not checked)
  std::vector<Interval> tiles;      // with the buffer each lands in
  std::vector<std::int64_t> buffers;
};

struct KernelEstimate {
  std::string kernel;       // the compiler's kernel name (InCore function / name_hint / <fn>_incore_<k>[_aic|_aiv])
  std::string core;         // AIV, AIC, or empty when not split
  std::string file;         // source file of the function
  int line = 0;             // the function / scope line
  int file_index = -1, function_index = -1, region = -1;
  std::vector<SpaceEstimate> spaces;   // spaces used, in kMemorySpaces order
  std::vector<std::string> unknown;    // on-chip values whose size is not static (not counted)
  bool split = false;                  // part of a mixed kernel split into _aic / _aiv
  // A further instance of a kernel of an inline function the program inlines more than once: the
  // compiler names the instances <name>, <name>_0, <name>_1, ...; the same estimate as the first
  // (findings come from the first only).
  bool repeated = false;

  const SpaceEstimate* space(std::string_view s) const;
};

// Every incore kernel of the program with a predictable kernel name, each instance of a kernel inlined
// several times included (`repeated`).
std::vector<KernelEstimate> estimateProgram(const dsl::ProgramModel& model, Platform platform);
// The kernels findings are about: estimateProgram's without the repeated instances.
std::vector<KernelEstimate> firstInstances(std::vector<KernelEstimate> kernels);

// SRAM rows (estimate filled) of the estimates; `project` names the project or program.
std::vector<SramRow> toSramRows(const std::vector<KernelEstimate>& kernels, const std::string& project,
                                std::size_t max_tiles = 5);

// Merges `incoming` rows into `rows` by project + function + space: a matching row takes the
// incoming estimate and/or actual figure (the compiler's core, tiles and capacity win when the
// incoming row is an actual one); rows without a match are appended. Used in both directions:
// estimates into compiler rows and compiler rows into estimates. An incoming <file>:<program> row
// (a file compiling several programs) joins the <file> row of its kernel that has no actual yet.
void mergeSramRows(std::vector<SramRow>& rows, const std::vector<SramRow>& estimates);
// A compiler row without an estimate whose name is a copy of an estimated kernel (<name>_<k>, before a
// _aic / _aiv split suffix: the compiler's copies of one kernel under unrolling and repeated instances)
// takes that kernel's estimate, with estimate_from naming it. mergeSramRows ends with it.
void fillCopyEstimates(std::vector<SramRow>& rows);

}  // namespace portcheck::sram
