#pragma once
// The PTO-ISA tile instructions (all 148 PTO_INST names of pto-isa include/pto/common/pto_instr.hpp at
// 3186c381bd49): arity, operand tile locations, the core that runs them, per-arch dtype sets.
// Source: shared reference pto-isa-and-auto-mode.md §2-§3.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/platform.h"
#include "kernel/tile_type.h"

namespace portcheck::kernel {

enum class OpKind {
  Vector,    // every tile operand is a Vec tile (elementwise, tile-scalar, reduce, expand, sort, ...)
  VecOrMat,  // TEXPANDS, TFILLPAD*: Vec or Mat
  Load,      // TLOAD/TPREFETCH(dst tile, src GlobalTensor): dst Vec or Mat
  Gather,    // MGATHER(dst, src GlobalTensor, idx)
  Store,     // TSTORE(dst GlobalTensor, src tile)
  StoreFp,   // TSTORE_FP(dst GlobalTensor, src Acc, fp Scaling)
  Scatter,   // MSCATTER(dst GlobalTensor, src Vec, idx Vec)
  Matmul,    // TMATMUL/TGEMV families: Acc <- Left x Right (+Bias)
  Move,      // TMOV/TEXTRACT/TINSERT (+_FP): location pairs per arch
  Alias,     // TRESHAPE/TSUBVIEW: same location both sides
  Assign,    // TASSIGN (manual mode binding)
  Sync,      // TSYNC, SYNCALL
  Pipe,      // TPUSH/TPOP/TALLOC/TFREE cross-core FIFOs
  Other,     // configuration, debug, conv helpers
};

struct Instruction {
  std::string_view name;
  OpKind kind;
  int min_args;     // explicit operands, trailing manual-mode Event<> arguments excluded
  int max_args;
  int header_line;  // first overload in pto_instr.hpp
};

const Instruction* findInstruction(std::string_view name);

// How an instruction writes its destination tile, from the formulas of pto-isa's docs/isa (generated:
// instruction_writes.py): Overwrite (every element, without reading it), ReadWrite (reads it: TMULADDDST is
// dst = src0 * src1 + dst), Partial (only some elements: TINSERT at an offset, TSCATTER at indices), Unknown
// (no formula in the docs).
enum class DstAccess { Overwrite, ReadWrite, Partial, Unknown };
DstAccess dstAccessOf(std::string_view name);

// Which core runs an instruction, given the locations of its operands (Loc::Unknown for non-tiles).
enum class Core { Any, Vector, Cube };
Core coreOf(const Instruction& ins, const std::vector<Loc>& locs);

// Why the operand locations are illegal for `ins` on `platform`, or nullopt (legal or unknown).
// The A2A3 Acc->Vec move is left to AUTO015 and not reported here.
std::optional<std::string> locationProblem(const Instruction& ins, const std::vector<Loc>& locs, Platform platform);

// True when operand `index` of an `arity`-operand call may be a GlobalTensor.
bool acceptsGlobalAt(const Instruction& ins, std::size_t index, std::size_t arity);

// Why the operand element types are not supported on `platform`, or nullopt. `dtypes` are normalised
// (normaliseDtype), empty for non-tile operands or unknown types.
std::optional<std::string> dtypeProblem(const Instruction& ins, const std::vector<Loc>& locs,
                                        const std::vector<std::string>& dtypes, Platform platform);

}  // namespace portcheck::kernel
