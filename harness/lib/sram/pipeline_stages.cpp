// pl.pipeline(stage=N): LowerPipelineLoops clones a loop body N deep (fewer when the trip count is
// smaller, or when SkewCrossCorePipeline handles the loop first), so what the body defines exists once
// per stage, each copy tagged with its loop's group and stage for the packer.
#include "sram/sram_estimator_internal.h"

#include <algorithm>

namespace portcheck::sram::detail {

// The tile standing for `tile` in pipeline stage `stage` (0-based): its copy there, or itself.
int RegionEstimator::inStage(int tile, int stage) const {
  auto it = stage_copies_.find(tile);
  if (stage == 0 || it == stage_copies_.end() || stage > static_cast<int>(it->second.size())) return tile;
  return it->second[static_cast<std::size_t>(stage - 1)];
}

// The innermost pl.pipeline loop statement of the kernel around `stmt` (-1 when none), and its stage.
int RegionEstimator::pipelineLoop(int stmt) const {
  if (stmt < 0) return -1;
  for (int l = fn_.stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0 && inRegion(l);
       l = fn_.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
    const dsl::Stmt& ls = fn_.stmts[static_cast<std::size_t>(l)];
    if (ls.loop >= 0 && fn_.loops[static_cast<std::size_t>(ls.loop)].iter == dsl::LoopIter::PlPipeline) return l;
  }
  return -1;
}

std::vector<int> RegionEstimator::pipelineLoops(int stmt) const {
  std::vector<int> loops;
  for (int l = pipelineLoop(stmt); l >= 0; l = pipelineLoop(l)) loops.push_back(l);
  return loops;
}

// Rebinding in the loop a name the kernel bound before it makes it an iter_arg (ConvertToSSA); the
// same name bound after the loop, or in another scope (another kernel once outlined), does not. A
// value carried through a loop nested in `loop_stmt` starts afresh in each of its iterations (hc_post's
// row summed over the heads in an inner pl.pipeline exists once per clone of the outer one).
bool RegionEstimator::carriedAcross(int r, int loop_stmt) const {
  const Value& v = fn_.values[static_cast<std::size_t>(r)];
  if (boundBefore(v.name, loop_stmt) >= 0) return true;
  const int end = fn_.stmts[static_cast<std::size_t>(loop_stmt)].subtree_end;
  for (std::size_t j = 0; j < fn_.values.size(); ++j) {
    const Value& a = fn_.values[j];
    if (!a.loop_carried || (static_cast<int>(j) != r && root(static_cast<int>(j)) != r)) continue;
    const bool nested = a.carried_loop > loop_stmt && a.carried_loop < end;  // an inner loop carries it
    if (!nested) return true;
  }
  return false;
}

// Whether a view of the tile `r` (pl.slice, pl.reshape, ...) is taken inside the loop `loop_stmt`.
bool RegionEstimator::viewedIn(int r, int loop_stmt) const {
  const int end = fn_.stmts[static_cast<std::size_t>(loop_stmt)].subtree_end;
  for (std::size_t j = 0; j < fn_.values.size(); ++j) {
    const Value& w = fn_.values[j];
    if (static_cast<int>(j) == r || w.def_expr < 0 || w.def_stmt <= loop_stmt || w.def_stmt >= end) continue;
    if (X(w.def_expr).kind == ExprKind::Call && isViewOp(opName(X(w.def_expr))) && root(static_cast<int>(j)) == r)
      return true;
  }
  return false;
}

std::string RegionEstimator::stageSuffix(int stage) {
  return stage > 0 ? " (pipeline stage " + std::to_string(stage + 1) + ")" : std::string();
}

// How many copies of its body the compiler makes of a pl.pipeline loop on the core owning `space`.
// A loop whose body crosses cores both ways (a cube result read by vector code and a vector result
// read by a matmul, each defined by a statement of the body itself: a tpush and a tpop on each core)
// is handled by SkewCrossCorePipeline before LowerPipelineLoops: on the AIV, which pops first, it is
// demoted to a plain loop (one copy); on the AIC the producer is skewed D = max(2, stage - 1)
// iterations ahead (D produce and D consume clones) when there is one message each way and the static
// trip count allows it (trip % D == 0, trip >= 2D, else the largest D that does), else demoted too.
int RegionEstimator::stageDepth(int loop_stmt, MemSpace space) {
  const int stages = pipelineDepth(loop_stmt);
  if (stages <= 1) return stages;
  if (!crossesBothWays(loop_stmt)) return stages;
  const CrossCoreLoop& cc = crossCoreLoop(loop_stmt);
  if (space == MemSpace::Vec) return 1;
  const dsl::Loop& loop = fn_.loops[static_cast<std::size_t>(fn_.stmts[static_cast<std::size_t>(loop_stmt)].loop)];
  if (cc.to_vector.size() != 1 || cc.to_cube.size() != 1 || !loop.trip_count) return 1;
  const std::int64_t trip = *loop.trip_count;
  int depth = std::max(2, stages - 1);
  while (depth > 1 && !(trip % depth == 0 && trip >= 2 * depth)) --depth;
  return depth;
}

// Marks a tile as defined by clone `stage` of the pl.pipeline loop `loop_stmt`. Group ids follow the
// order LowerPipelineLoops lowers loops in (post-order: inner loops first, then in program order).
void RegionEstimator::tagStage(Interval& iv, int loop_stmt, int stage) const {
  if (loop_stmt < 0) return;
  const dsl::Stmt& s = fn_.stmts[static_cast<std::size_t>(loop_stmt)];
  iv.pipe_group = s.subtree_end * 64 + (63 - std::min(63, s.depth));
  iv.pipe_stage = stage;
}

// LowerPipelineLoops makes trip / stage main-loop iterations of `stage` clones and a tail of
// trip % stage clones (LowerStatic), each its own group: never more clones at once than the loop
// has iterations when the trip count is known.
int RegionEstimator::pipelineDepth(int loop_stmt) const {
  const dsl::Loop& loop = fn_.loops[static_cast<std::size_t>(fn_.stmts[static_cast<std::size_t>(loop_stmt)].loop)];
  int stages = loop.stage.isInt() && loop.stage.i > 1 && loop.stage.i <= 8 ? static_cast<int>(loop.stage.i) : 1;
  if (loop.trip_count) stages = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(stages, *loop.trip_count)));
  return stages;
}

}  // namespace portcheck::sram::detail
