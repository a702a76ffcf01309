// The tiles the program itself defines: every on-chip value of the region that is a buffer's root, in
// the space its type (or its use as a matmul operand) gives it, sized by its shape, live from its
// definition to its last use; then, call by call, the tiles and constraints the compiler adds.
#include "sram/sram_estimator_internal.h"

#include <algorithm>
#include <set>

namespace portcheck::sram::detail {

namespace {

// The bytes of `tile`'s elements in the element type of the GM tensor `gm`: what a pl.load or pl.store
// of the whole tile moves through GM. 0 when either is unknown.
std::int64_t gmBytes(const dsl::TypeInfo& tile, const Value& gm) {
  dsl::TypeInfo moved = tile;
  if (gm.type.dtype != dsl::DType::Unknown) moved.dtype = gm.type.dtype;
  return moved.bytes().value_or(0);
}

}  // namespace

MemSpace RegionEstimator::spaceOf(const Value& v) const {
  MemSpace s = v.type.space;
  if (s == MemSpace::Unknown || s == MemSpace::DDR) s = MemSpace::Vec;
  return s;
}

// A view of a GM tensor taken inside the kernel (`t[a:b, c:d]`, `pl.slice(t, ...)`): the compiler
// loads the viewed region into a tile (ConvertTensorToTile), sized by the view, not by `t`.
bool RegionEstimator::isGmView(int v) const {
  const Value& val = V(v);
  if (!val.on_chip || val.type.kind != ValueKind::Tensor || val.def_expr < 0) return false;
  const Expr& d = X(val.def_expr);
  int base = -1;
  if (d.kind == ExprKind::Subscript && !d.children.empty()) base = d.children[0];
  else if (d.kind == ExprKind::Call && isViewOp(opName(d)) && !d.args.empty()) base = d.args[0];
  if (base < 0) return false;
  const Value* b = fn_.valueOf(base);
  return b && b->type.kind == ValueKind::Tensor && (!b->on_chip || fromAnotherScope(*b));
}

std::string RegionEstimator::viewSource(int v) const {
  const Expr& d = X(V(v).def_expr);
  int base = d.kind == ExprKind::Subscript ? d.children[0] : d.args[0];
  const Value* b = fn_.valueOf(base);
  return b ? b->name : std::string();
}

// The space a value's tile lands in: a GM view read by a matmul is loaded into Mat.
MemSpace RegionEstimator::tileSpace(int r) const {
  if (mat_operand_.count(r) && (isGmView(r) || foldedCast(r))) return MemSpace::Mat;
  return spaceOf(V(r));
}

// Which roots are matmul operands (left / right), and which are read as data at all (a view used
// only as the destination of pl.assemble / pl.store is not loaded).
void RegionEstimator::classifyOperands() {
  for (int c : fn_.calls) {
    const Expr& call = X(c);
    if (!inRegion(call.stmt)) continue;
    std::string_view op = opName(call);
    auto rootOf = [&](int a) { return a >= 0 && X(a).value >= 0 ? root(X(a).value) : -1; };
    if (isMatmulOp(op)) {
      std::size_t li = op.find("_acc") != std::string_view::npos ? 1 : 0;
      for (std::size_t i = li; i < std::min(call.args.size(), li + 2); ++i)
        if (int r = rootOf(call.args[i]); r >= 0) mat_operand_.insert(r);
    }
    for (std::size_t i = 0; i < call.args.size(); ++i) {
      bool dest = (op == "assemble" && i == 0) || (op == "store" && i == 2);
      if (!dest)
        if (int r = rootOf(call.args[i]); r >= 0) data_use_.insert(r);
    }
    for (const auto& [k, a] : call.kwargs)
      if (k != "output_tensor")
        if (int r = rootOf(a); r >= 0) data_use_.insert(r);
  }
  // A view stored as it is, `dst[...] = view`, is read: the compiler loads it (tensor.slice ->
  // tile.load) and stores the tile.
  for (std::size_t i = 0; i < fn_.stmts.size(); ++i) {
    const dsl::Stmt& st = fn_.stmts[i];
    if (st.kind != dsl::StmtKind::Assign || st.value < 0 || !inRegion(static_cast<int>(i))) continue;
    // (bound to a name first, or written as it is: `dst[a:b, :] = src[c:d, :]`)
    const ExprKind k = X(st.value).kind;
    if ((k != ExprKind::Name && k != ExprKind::Subscript) || X(st.value).value < 0) continue;
    const bool into_subscript = std::any_of(st.targets.begin(), st.targets.end(),
                                            [&](int t) { return X(t).kind == ExprKind::Subscript; });
    if (into_subscript) data_use_.insert(root(X(st.value).value));
  }
}

void RegionEstimator::addTile(std::string name, std::int64_t bytes, MemSpace space, int def, int last, int line,
                              bool implicit) {
  Tile t;
  t.iv.implicit = implicit;
  t.iv.name = std::move(name);
  t.iv.bytes = bytes;
  t.iv.def = def;
  t.iv.last = std::max(def, last);
  t.iv.line = line;
  t.space = space;
  t.iv.id = static_cast<int>(tiles_.size());
  if (space == MemSpace::Vec) has_vector_tile_ = true;
  tiles_.push_back(std::move(t));
}

// An L0C (Acc) allocation pads its rows (the penultimate dimension) to the backend's L0C M alignment:
// 32 rows for an INT32 accumulator on a2a3 (Ascend910BHandler::GetL0cMAlignment), else the 16-row
// cube fractal (InitMemRef's L0cPhysicalBytes).
std::optional<std::int64_t> RegionEstimator::accumulatorBytes(const dsl::TypeInfo& type) const {
  std::optional<std::int64_t> bytes = type.bytes();
  const auto& dims = type.shape.dims;
  if (!bytes || dims.size() < 2 || !dims[dims.size() - 2] || *dims[dims.size() - 2] <= 0) return bytes;
  const std::int64_t rows = *dims[dims.size() - 2];
  const std::int64_t align = type.dtype == dsl::DType::Int32 && platform_ == Platform::A2A3 ? 32 : 16;
  return *bytes / rows * ((rows + align - 1) / align * align);
}

std::string RegionEstimator::displayName(int v) const {
  const Value& val = V(v);
  if (!val.name.empty()) return val.name;
  if (val.def_expr >= 0) {
    std::string_view text = file_.text(X(val.def_expr));
    std::string s(text.substr(0, 40));
    if (text.size() > 40) s += "...";
    return s;
  }
  return "<tile>";
}

void RegionEstimator::collectTiles() {
  std::set<int> done;
  for (std::size_t i = 0; i < fn_.values.size(); ++i) {
    const Value& v = fn_.values[i];
    if (!v.on_chip || !inRegion(v.def_stmt)) continue;
    if (v.type.kind == ValueKind::Scalar) continue;
    if (v.def_expr < 0) continue;
    bool gm_view = isGmView(static_cast<int>(i));
    if (X(v.def_expr).kind != ExprKind::Call && !gm_view) continue;
    int r = root(static_cast<int>(i));
    if (r != static_cast<int>(i) || !done.insert(r).second) continue;
    if (gm_view && !data_use_.count(r)) continue;  // only written through: no tile
    MemSpace space = tileSpace(r);
    if (space == MemSpace::DDR) continue;
    std::optional<std::int64_t> bytes = space == MemSpace::Acc ? accumulatorBytes(v.type) : v.type.bytes();
    // A fresh matmul's output that overflows L0c lives there one [m, n] sub-tile at a time.
    if (bytes && space == MemSpace::Acc && v.type.shape.fullyStatic() && v.type.shape.dims.size() >= 2) {
      const auto& d = v.type.shape.dims;
      const std::int64_t M = *d[d.size() - 2], N = *d[d.size() - 1];
      if (const auto [m, n] = l0cSubTile(opName(X(v.def_expr)), M, N); m * n < M * N)
        bytes = *bytes / (M * N) * (m * n);
    }
    if (!bytes) {
      unknown_.push_back(displayName(r));
      continue;
    }
    int def = isNumberedCall(v.def_expr) ? pointOf(v.def_expr) : v.def_stmt * kSub;
    // A view written inline as an operand (`pl.matmul(x[a:b, :], h)`) is loaded just before the call
    // reading it, with the call's other operands: live with them, as an implicit load is.
    if (gm_view && !isNumberedCall(v.def_expr))
      for (const auto& [p, s] : uses_[static_cast<std::size_t>(r)])
        if (s == v.def_stmt) def = std::min(def, p - 1);
    int last = def;
    for (const auto& [p, s] : uses_[static_cast<std::size_t>(r)]) last = std::max(last, holdUntil(v.def_stmt, p, s));
    // Every alias defined later keeps the buffer for its own uses (already routed to the root).
    if (v.loop_carried && v.carried_loop >= 0)
      last = std::max(last, (fn_.stmts[static_cast<std::size_t>(v.carried_loop)].subtree_end - 1) * kSub + kSub - 1);
    for (std::size_t j = 0; j < fn_.values.size(); ++j) {
      const Value& a = fn_.values[j];
      if (a.loop_carried && a.carried_loop >= 0 && root(static_cast<int>(j)) == r)
        last = std::max(last, (fn_.stmts[static_cast<std::size_t>(a.carried_loop)].subtree_end - 1) * kSub + kSub - 1);
    }
    int line = X(v.def_expr).loc.line;
    addTile(displayName(r), *bytes, space, def, last, line);
    if (v.type.shape.fullyStatic())
      for (const dsl::Dim& d : v.type.shape.dims) tiles_.back().iv.shape.push_back(*d);
    const Expr& dx = X(v.def_expr);
    if (opName(dx) == "load" && !dx.args.empty())
      if (const Value* src = fn_.valueOf(dx.args[0])) {
        tiles_.back().iv.loads_from = src->name;
        tiles_.back().iv.is_load = true;
        tiles_.back().iv.loaded_bytes = gmBytes(v.type, *src);
      }
    if (gm_view) {
      tiles_.back().iv.loads_from = viewSource(r);
      tiles_.back().iv.is_load = true;
      tiles_.back().iv.loaded_bytes = *bytes;
    }
    tiles_.back().crossing = false;
    value_tile_[r] = static_cast<int>(tiles_.size()) - 1;
    // pl.pipeline(stage=N) unrolls the body N deep: a tile defined in it (not carried across
    // iterations) exists N times at once, each in its own buffer. LowerPipelineLoops lowers inner loops
    // first, so a pipeline inside a pipelined body is cloned in every clone of the outer body: a tile
    // of the inner body exists (inner stages) x (outer stages) times, tagged with one clone of each.
    // (an accumulator rebound in the body, `acc = pl.matmul_acc(acc, ...)`, is carried under its name)
    // A cube accumulator is not tagged by LowerPipelineLoops (the one cube retires each MAD before
    // the next, so the stages' accumulators coalesce by lifetime into one buffer), unless a view of
    // it in the body is (pl.slice of the result: MemoryReuse gives the view's buffer group its
    // tag); the clones SkewCrossCorePipeline makes of a loop crossing cores both ways are tagged whole.
    std::vector<std::pair<int, int>> cloned;  // (loop, depth) of each loop cloning it, innermost first
    for (int ploop : pipelineLoops(v.def_stmt)) {
      const bool accumulator = space == MemSpace::Acc && opName(dx).rfind("matmul", 0) == 0 &&
                               !(crossesBothWays(ploop) || viewedIn(r, ploop));
      if (accumulator || carriedAcross(r, ploop)) continue;
      if (int depth = stageDepth(ploop, space); depth > 1) cloned.emplace_back(ploop, depth);
    }
    if (!cloned.empty()) {
      const int first = static_cast<int>(tiles_.size()) - 1;
      int copies = 1;
      for (const auto& [loop, depth] : cloned) copies = std::min(copies * depth, 4096);
      // Copy k holds stage (k / product of the inner depths) % depth of each loop, the innermost fastest:
      // copies 1 .. d-1 are the innermost loop's stages (inStage), in the outer loops' first clone.
      const Tile base = tiles_[static_cast<std::size_t>(first)];
      for (int k = 0; k < copies; ++k) {
        Tile copy = base;
        sram::Interval& iv = copy.iv;
        int rest = k;
        for (std::size_t l = 0; l < cloned.size(); ++l) {
          const int stage = rest % cloned[l].second;
          rest /= cloned[l].second;
          if (l == 0) {
            tagStage(iv, cloned[l].first, stage);
          } else {
            sram::Interval outer;
            tagStage(outer, cloned[l].first, stage);
            iv.outer_pipes.emplace_back(outer.pipe_group, outer.pipe_stage);
          }
        }
        if (k == 0) {
          tiles_[static_cast<std::size_t>(first)] = std::move(copy);
          continue;
        }
        copy.iv.name += k < cloned[0].second ? stageSuffix(k) : " (pipeline clone " + std::to_string(k + 1) + ")";
        copy.iv.implicit = true;
        copy.iv.id = static_cast<int>(tiles_.size());
        stage_copies_[first].push_back(copy.iv.id);
        tiles_.push_back(std::move(copy));
      }
    }
  }
  for (int c : fn_.calls) {
    const Expr& call = X(c);
    if (!inRegion(call.stmt) || call.pl_name.empty()) continue;
    std::string_view op = opName(call);
    if (op == "store" && call.args.size() >= 1 && X(call.args[0]).value >= 0) {
      auto it = value_tile_.find(root(X(call.args[0]).value));
      int out_arg = call.args.size() >= 3 ? call.args[2] : fn_.arg(call, 99, "output_tensor");
      const Value* dst = out_arg >= 0 ? fn_.valueOf(out_arg) : nullptr;
      if (it != value_tile_.end() && dst) {
        sram::Interval& iv = tiles_[static_cast<std::size_t>(it->second)].iv;
        iv.stores_to = dst->name;
        iv.stored_bytes = gmBytes(V(X(call.args[0]).value).type, *dst);
      }
    }
    bool mm = isMatmulOp(op);
    if (mm) has_cube_op_ = true;
    forbidInplace(c);
    implicitLoads(c, mm);
    implicitScratch(c);
    gatherScratch(c);
    compareScratch(c);
    if (mm) autoTileL0(c);
    markCrossing(c, mm);
  }
  propagateExtents();
}

}  // namespace portcheck::sram::detail
