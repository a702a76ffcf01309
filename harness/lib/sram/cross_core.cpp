// Values crossing between the cube (AIC) and vector (AIV) cores of a mixed kernel: cube results read by
// vector code, vector results read by a matmul, and the pl.pipeline loops whose body crosses both ways.
#include "sram/sram_estimator_internal.h"

#include <algorithm>

namespace portcheck::sram::detail {

// A cube result: what vector code reading it pops from the AIC.
bool RegionEstimator::cubeResult(int r) const {
  const Value& v = V(r);
  return v.def_expr >= 0 && X(v.def_expr).kind == ExprKind::Call && isMatmulOp(opName(X(v.def_expr)));
}

// A tile the vector cores computed (not a load, a view or a matmul result): what a matmul reading it
// pops from the AIV.
bool RegionEstimator::vectorComputed(int r) const {
  const Value& v = V(r);
  if (v.def_expr < 0 || X(v.def_expr).kind != ExprKind::Call || !v.on_chip) return false;
  std::string_view op = opName(X(v.def_expr));
  return !isMatmulOp(op) && op != "load" && !isViewOp(op) && tileSpace(r) == MemSpace::Vec;
}

// AutoTileMatmulL0's cast fold: `pl.cast(c, BF16 | FP16, mode="rint")` of a matmul result that only
// matmuls read is done by the cube's FIXPIPE writeback into a Mat scratch (round-half-to-even is what
// FIXPIPE does; any other mode stays a vector cast): no vector tile, nothing crosses to the AIV.
bool RegionEstimator::foldedCast(int r) const {
  const Value& v = V(r);
  if (v.def_expr < 0 || X(v.def_expr).kind != ExprKind::Call) return false;
  const Expr& cast = X(v.def_expr);
  if (opName(cast) != "cast" || cast.args.empty() || X(cast.args[0]).value < 0) return false;
  if (v.type.dtype != dsl::DType::BF16 && v.type.dtype != dsl::DType::FP16) return false;
  bool rint = false;
  for (const auto& [k, a] : cast.kwargs)
    if (k == "mode" && X(a).kind == ExprKind::String) rint = X(a).name == "rint";
  if (!rint) return false;
  const Value& src = V(root(X(cast.args[0]).value));
  if (src.def_expr < 0 || X(src.def_expr).kind != ExprKind::Call || !isMatmulOp(opName(X(src.def_expr)))) return false;
  bool read = false;
  for (int c : fn_.calls) {
    const Expr& call = X(c);
    if (!inRegion(call.stmt)) continue;
    for (int a : call.args)
      if (X(a).value >= 0 && root(X(a).value) == r) {
        if (!isMatmulOp(opName(call))) return false;
        read = true;
      }
  }
  return read;
}

bool RegionEstimator::crossesBothWays(int loop_stmt) {
  const CrossCoreLoop& cc = crossCoreLoop(loop_stmt);
  return !cc.to_vector.empty() && !cc.to_cube.empty();
}

const RegionEstimator::CrossCoreLoop& RegionEstimator::crossCoreLoop(int loop_stmt) {
  auto [it, fresh] = cross_core_loops_.try_emplace(loop_stmt);
  if (!fresh) return it->second;
  const int end = fn_.stmts[static_cast<std::size_t>(loop_stmt)].subtree_end;
  auto inLoop = [&](int stmt) { return stmt > loop_stmt && stmt < end; };
  for (int c : fn_.calls) {
    const Expr& call = X(c);
    if (!inLoop(call.stmt) || call.pl_name.empty()) continue;
    std::string_view op = opName(call);
    const bool mm = isMatmulOp(op);
    if (!mm && (op == "store" || op == "move" || op == "assemble")) continue;
    for (int a : call.args) {
      if (X(a).value < 0) continue;
      const int r = root(X(a).value);
      // SkewCrossCorePipeline sees only the loop body's own statements (FlattenToStmts): a value
      // defined under an if or an inner loop there hands nothing across at the loop's level.
      if (!inLoop(V(r).def_stmt) || fn_.stmts[static_cast<std::size_t>(V(r).def_stmt)].parent != loop_stmt) continue;
      if (!mm && cubeResult(r)) it->second.to_vector.insert(r);
      if (mm && vectorComputed(r)) it->second.to_cube.insert(r);
    }
  }
  return it->second;
}

// A cube result read by a vector op crosses to the AIV core through the pipe ring.
void RegionEstimator::markCrossing(int c, bool mm) {
  const Expr& call = X(c);
  if (mm) {  // a vector-computed tile a matmul reads is pushed to the cube
    for (int a : call.args) {
      if (X(a).value < 0) continue;
      const int r = root(X(a).value);
      if (!vectorComputed(r)) continue;
      if (auto it = value_tile_.find(r); it != value_tile_.end()) tiles_[static_cast<std::size_t>(it->second)].to_cube = true;
    }
    return;
  }
  for (int a : call.args) {
    const Value* v = fn_.valueOf(a);
    if (!v || X(a).value < 0) continue;
    auto it = value_tile_.find(root(X(a).value));
    if (it == value_tile_.end()) continue;
    Tile& t = tiles_[static_cast<std::size_t>(it->second)];
    // A view of the accumulator (pl.slice) stays on the cube: what reads the view decides, and what
    // crosses is the view.
    std::string_view op = opName(call);
    if (call.value >= 0 && foldedCast(root(call.value))) continue;  // done on the cube
    if (t.space == MemSpace::Acc && op != "store" && op != "move" && !isViewOp(op)) {
      t.crossing = true;
      const bool view = root(X(a).value) != X(a).value;
      const std::optional<std::int64_t> b = view ? v->type.bytes() : std::optional<std::int64_t>(t.iv.bytes);
      t.crossing_bytes = std::max(t.crossing_bytes, b.value_or(t.iv.bytes));
    }
  }
}

}  // namespace portcheck::sram::detail
