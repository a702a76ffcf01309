#pragma once
// Internal to sram/: the region estimator estimateProgram() runs on every incore kernel, and what its
// phases share. Consumers include sram/sram_estimator.h only.
//
// A region is estimated in the order the compiler's passes see it, one file a phase:
//   live_ranges.cpp      program points of calls and the uses of each buffer (liveness)
//   buffer_sharing.cpp   which values are one buffer, which may never share one (MemoryReuse)
//   tile_collection.cpp  the tiles the program itself defines, their space and size
//   compiler_tiles.cpp   the tiles the compiler adds: implicit loads, lowering scratch, L0 tiles
//   pipeline_stages.cpp  the copies pl.pipeline makes of a loop body (LowerPipelineLoops)
//   cross_core.cpp       values crossing between cube and vector cores (the pipe ring)
//   tile_extents.cpp     how far each tile could grow (for the FUSE advice)
//   kernel_assembly.cpp  the _aic / _aiv split, the pipe ring and the packing of each space
// kernel_instances.cpp counts and names the instances of kernels of inline functions.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sram/sram_estimator.h"

namespace portcheck::sram::detail {

using dsl::Expr;
using dsl::ExprKind;
using dsl::Function;
using dsl::MemSpace;
using dsl::Value;
using dsl::ValueKind;

constexpr int kSub = 64;  // program points per statement (calls of one statement in evaluation order)

inline std::string_view opName(const Expr& call) { return call.opName(); }

inline bool isMatmulOp(std::string_view op) {
  return op == "matmul" || op == "matmul_acc" || op == "matmul_bias" || op == "gemv" || op == "gemv_acc" ||
         op == "gemv_bias" || op == "batch_matmul" || op == "batch_matmul_acc";
}

// Ops whose result aliases their (first) operand's buffer.
inline bool isViewOp(std::string_view op) {
  return op == "reshape" || op == "slice" || op == "view" || op == "yield_" || op == "reinterpret_view" ||
         op == "set_validshape" || op == "transpose_view";
}

struct Tile {
  Interval iv;
  MemSpace space = MemSpace::Vec;
  bool crossing = false;   // a cube result read by vector code (lives in the pipe ring on the AIV side)
  std::int64_t crossing_bytes = 0;  // the largest part of it the vector code reads (a view: the view)
  bool to_cube = false;    // a vector result read by a matmul (lives in the pipe ring on the AIC side)
};

// The on-chip footprint of an inline function spliced into a kernel: per space, the high-water mark of
// its own body (its temporaries are dead once it returns).
struct InlineFootprint {
  std::vector<std::pair<MemSpace, std::int64_t>> spaces;
  bool cube = false;
};
using InlineFootprints = std::function<const InlineFootprint*(int file, int function)>;

// What every region of a function shares, worked out once per function: a function with many pl.at scopes
// is estimated region by region, and these facts do not depend on the region.
struct FunctionPoints {
  std::vector<int> call_point;  // expr -> its program point when it is a call, -1 otherwise
  // Each read of a value by a call's argument (through lists, tuples, keywords and subscripts), as
  // (value, point, stmt), calls in order: a region files them under the values' buffers.
  std::vector<std::array<int, 3>> call_reads;
};

// live_ranges.cpp
FunctionPoints functionPoints(const Function& fn);

// kernel_instances.cpp: the name of a kernel of a region named `base` (`proj`, or split `proj_aic`)
// in a splice of the region named `instance` (`proj_1` -> `proj_1`, `proj_1_aic`).
std::string instanceName(const std::string& kernel, const std::string& base, const std::string& instance);

// The estimate of one incore region of a function: its tiles with their live ranges, packed per space.
class RegionEstimator {
 public:
  RegionEstimator(const dsl::FileModel& file, const Function& fn, const FunctionPoints& points,
                  const dsl::IncoreRegion& region, Platform platform, InlineFootprints inlined = {})
      : file_(file), fn_(fn), points_(points), region_(region), platform_(platform), inlined_(std::move(inlined)) {}

  std::vector<KernelEstimate> run() {
    resolveAliases();
    collectUses();
    classifyOperands();
    collectTiles();
    addInlinedCalls();
    return assemble();
  }

 private:
  // The values a pl.pipeline loop's body hands across cores, each way.
  struct CrossCoreLoop {
    std::set<int> to_vector;  // cube results read by vector code
    std::set<int> to_cube;    // vector results read by a matmul
  };

  const dsl::FileModel& file_;
  const Function& fn_;
  const FunctionPoints& points_;
  const dsl::IncoreRegion& region_;
  Platform platform_;
  InlineFootprints inlined_;
  std::vector<int> alias_;                    // value -> value whose buffer it is (itself when none)
  std::vector<std::vector<std::pair<int, int>>> uses_;  // root value -> (point, stmt)
  std::vector<Tile> tiles_;
  std::vector<std::string> unknown_;
  bool has_cube_op_ = false;
  bool has_vector_tile_ = false;
  std::unordered_set<int> mat_operand_, data_use_;
  std::unordered_map<int, int> value_tile_;
  std::unordered_map<int, std::vector<int>> stage_copies_;  // tile -> its copies for pipeline stages 2..N
  std::unordered_map<int, CrossCoreLoop> cross_core_loops_;
  std::unordered_map<int, bool> implicit_mat_;
  std::unordered_map<const Value*, int> entry_loads_;  // kernel input -> the tile its entry load makes

  const Expr& X(int e) const { return fn_.exprs[static_cast<std::size_t>(e)]; }
  const Value& V(int v) const { return fn_.values[static_cast<std::size_t>(v)]; }
  bool inRegion(int stmt) const { return stmt >= region_.first && stmt < region_.last; }
  // A value another incore scope of the function computed: it reaches this kernel through GM
  // (OutlineIncoreScopes passes it as a Tensor parameter), however on chip it was where computed.
  bool fromAnotherScope(const Value& v) const { return v.def_stmt >= 0 && !inRegion(v.def_stmt); }

  bool isNumberedCall(int e) const { return e >= 0 && points_.call_point[static_cast<std::size_t>(e)] >= 0; }
  // The program point of call `c` (0 for an expression that is no call, as before).
  int pointOf(int c) const { return isNumberedCall(c) ? points_.call_point[static_cast<std::size_t>(c)] : 0; }

  // live_ranges.cpp
  void collectUses();
  int holdUntil(int def_stmt, int point, int stmt) const;

  // buffer_sharing.cpp
  int root(int v) const;
  void resolveAliases();
  int carriedInit(int i) const;
  int boundBefore(const std::string& name, int loop_stmt) const;
  void forbidInplace(int c);
  void forbidSharing(int a, int b);

  // tile_collection.cpp
  MemSpace spaceOf(const Value& v) const;
  bool isGmView(int v) const;
  std::string viewSource(int v) const;
  MemSpace tileSpace(int r) const;
  void classifyOperands();
  void addTile(std::string name, std::int64_t bytes, MemSpace space, int def, int last, int line,
               bool implicit = false);
  std::optional<std::int64_t> accumulatorBytes(const dsl::TypeInfo& type) const;
  std::string displayName(int v) const;
  void collectTiles();

  // compiler_tiles.cpp
  void implicitScratch(int c);
  void compareScratch(int c);
  Interval& addLoweringScratch(std::string name, std::int64_t bytes, int def, int last, int line, std::vector<int>& made);
  void gatherScratch(int c);
  void implicitLoads(int c, bool mm);
  MemSpace operandSpace(int a) const;
  // AutoTileMatmulL0's [m, n] output sub-tile of a matmul `op` with an [M, N] output.
  std::pair<std::int64_t, std::int64_t> l0cSubTile(std::string_view op, std::int64_t M, std::int64_t N) const;
  void autoTileL0(int c);

  // pipeline_stages.cpp
  int inStage(int tile, int stage) const;
  int pipelineLoop(int stmt) const;
  // Every pl.pipeline loop statement of the kernel around `stmt`, innermost first.
  std::vector<int> pipelineLoops(int stmt) const;
  // Whether the tile of root value `r` is carried from one iteration of `loop_stmt` to the next (an
  // iter_arg: one buffer for every clone) rather than defined afresh in each clone.
  bool carriedAcross(int r, int loop_stmt) const;
  bool viewedIn(int r, int loop_stmt) const;
  // How many copies the pipeline loop `loop` (-1: none) makes of what it defines in `space`.
  int stagesOf(int loop, MemSpace space) { return loop >= 0 ? stageDepth(loop, space) : 1; }
  static std::string stageSuffix(int stage);
  int stageDepth(int loop_stmt, MemSpace space);
  void tagStage(Interval& iv, int loop_stmt, int stage) const;
  int pipelineDepth(int loop_stmt) const;

  // cross_core.cpp
  bool cubeResult(int r) const;
  bool vectorComputed(int r) const;
  bool crossesBothWays(int loop_stmt);
  bool foldedCast(int r) const;
  const CrossCoreLoop& crossCoreLoop(int loop_stmt);
  void markCrossing(int c, bool mm);

  // tile_extents.cpp
  std::vector<std::int64_t> gmExtent(int v) const;
  static void clampExtent(std::vector<std::int64_t>& into, const std::vector<std::int64_t>& by);
  void propagateExtents();

  // kernel_assembly.cpp
  const dsl::Scope* scope() const;
  SpaceEstimate packSpace(MemSpace space, std::vector<Interval> ivs, std::int64_t reserved);
  void addInlinedCalls();
  std::vector<KernelEstimate> assemble();
};

}  // namespace portcheck::sram::detail
