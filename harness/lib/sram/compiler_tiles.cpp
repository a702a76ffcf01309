// The tiles the compiler adds that the program never declares: implicit loads of tensor operands,
// scratch tiles the lowering of some tensor-level ops creates (reductions, pl.cmp, pl.gather), and the
// L0 tiles AutoTileMatmulL0 extracts a matmul's operands into.
#include "sram/sram_estimator_internal.h"

#include <algorithm>
#include <set>
#include "dsl/type_rules.h"

namespace portcheck::sram::detail {

namespace {

std::int64_t elementBytes(dsl::DType t) { return std::max(1, dsl::dtypeBits(t) / 8); }

}  // namespace

// Tensor-level ops whose PTO instruction needs a scratch buffer get one from the compiler (pypto
// op_conversion_registry.cpp), a Vec tile.create the program never declares: a reduction
// pl.row_max(x) / row_sum / row_min / row_prod one of x's shape with its last dimension raised to 128
// when narrower (or dynamic) (RegisterReductionOps); the arg reductions row_/col_argmax / argmin one
// of x's exact shape; pl.rsqrt(x, high_precision=True) and pl.xor(a, b) / pl.xors one shaped like
// their first operand (AppendScratchTile); pl.mrgsort of 2-4 lists one shaped like its result. The
// tile forms take the scratch as an argument, which the program declares itself. Inside pl.pipeline(stage=N) each stage holds its own.
void RegionEstimator::implicitScratch(int c) {
  const Expr& call = X(c);
  std::string_view op = opName(call);
  bool padded = op == "row_max" || op == "row_sum" || op == "row_min" || op == "row_prod";
  bool exact = op == "row_argmax" || op == "row_argmin" || op == "col_argmax" || op == "col_argmin";
  bool precise = false;
  if (op == "rsqrt")
    for (const auto& [k, v] : call.kwargs)
      precise |= k == "high_precision" && X(v).kind == ExprKind::Bool && X(v).number.isInt() && X(v).number.i == 1;
  bool xor_op = op == "xor" || op == "xors";
  // pl.mrgsort of 2-4 lists merges into a tmp shaped like its result (RegisterSortOps).
  bool merge = op == "mrgsort" && call.args.size() >= 2 && call.args.size() <= 4 &&
               call.pl_name.rfind("tile.", 0) != 0 && call.value >= 0;
  std::size_t arity = xor_op ? 2 : 1;
  if (!(padded || exact || precise || xor_op || merge) || (!merge && call.args.size() != arity)) return;
  for (const auto& kw : call.kwargs)
    if (kw.first == "tmp_tile" || kw.first == "tmp") return;
  const Value* in = merge ? &V(call.value) : fn_.valueOf(call.args[0]);
  if (!in || !in->type.shape.rank_known || in->type.shape.dims.empty()) return;
  std::vector<dsl::Dim> dims = in->type.shape.dims;
  if (padded && dims.size() >= 2 && (!dims.back() || *dims.back() < 128)) dims.back() = 128;
  std::int64_t elements = 1;
  for (const dsl::Dim& d : dims) {
    if (!d) return;  // a dynamic leading extent: the scratch's size is not known here
    elements *= *d;
  }
  int p = pointOf(c);
  const int ploop = pipelineLoop(call.stmt);
  const int stages = stagesOf(ploop, MemSpace::Vec);
  for (int st = 0; st < stages; ++st) {
    addTile("tmp_tile (" + std::string(op) + " scratch)" + stageSuffix(st), elements * elementBytes(in->type.dtype), MemSpace::Vec, p - 1, p, call.loc.line, true);
    Tile& t = tiles_.back();
    if (stages > 1) tagStage(t.iv, ploop, st);
    // These ops are not_inplace_safe: their output never shares the scratch's buffer.
    if (call.value >= 0)
      if (auto out = value_tile_.find(root(call.value)); out != value_tile_.end())
        tiles_[static_cast<std::size_t>(inStage(out->second, st))].iv.no_share.push_back(t.iv.id);
  }
}

// A tensor-level pl.cmp(a, b) is lowered to a packed mask (tile.cmp / tile.cmps), two fills of the
// result's shape and type (ones and zeros) and a [1, 32] UINT8 tmp, selected into the result
// (RegisterCmpOps); all four are live at the select, whose result may take a fill's buffer.
void RegionEstimator::compareScratch(int c) {
  const Expr& call = X(c);
  std::string_view op = opName(call);
  if ((op != "cmp" && op != "cmps") || call.pl_name.rfind("tile.", 0) == 0 || call.value < 0 || call.args.empty())
    return;
  const Value* lhs = fn_.valueOf(call.args[0]);
  const std::optional<std::int64_t> result = V(call.value).type.bytes();
  if (!lhs || !result) return;
  const std::optional<std::int64_t> mask = dsl::compareMaskType(lhs->type).bytes();
  if (!mask) return;
  const int p = pointOf(c);
  std::vector<int> made;
  for (const auto& [what, bytes] : {std::pair<const char*, std::int64_t>{"mask", *mask}, {"ones", *result},
                                    {"zeros", *result}, {"tmp", 32}})
    addLoweringScratch(std::string("cmp ") + what + " (compiler scratch)", bytes, p - 1, p, call.loc.line, made);
}

// A Vec scratch tile one op's lowering creates, live [def, last], kept out of the buffers of the same
// lowering's other scratches (`made`, which it joins).
Interval& RegionEstimator::addLoweringScratch(std::string name, std::int64_t bytes, int def, int last, int line,
                                              std::vector<int>& made) {
  addTile(std::move(name), bytes, MemSpace::Vec, def, last, line, true);
  Interval& iv = tiles_.back().iv;
  iv.no_share.insert(iv.no_share.end(), made.begin(), made.end());
  made.push_back(iv.id);
  return iv;
}

// A tensor-level pl.gather(x, dim=-1, index=idx) of rank 2 is lowered by the compiler
// (op_conversion_registry.cpp, RegisterGatherOps, case 1) into tiles the program never declares.
// a2a3: a loop over the rows, each gathering into a [1, K] row with a [1, K] INT32 scratch.
// a5: one full-tile gather from a contiguous copy of the [I0, S1] source, through a [I0, K] INT32
// flat-index tile (when I0 > 1) and a [I0, K] INT32 scratch.
void RegionEstimator::gatherScratch(int c) {
  const Expr& call = X(c);
  if (opName(call) != "gather" || call.value < 0 || call.args.empty()) return;
  int index = call.args.size() >= 3 ? call.args[2] : -1;
  std::int64_t dim = -1;
  for (const auto& [k, v] : call.kwargs) {
    if (k == "index") index = v;
    if (k == "dim" && X(v).number.isInt()) dim = X(v).number.i;  // -1 is folded
  }
  if (call.args.size() >= 2 && X(call.args[1]).number.isInt()) dim = X(call.args[1]).number.i;
  const Value* in = fn_.valueOf(call.args[0]);
  const Value* idx = index >= 0 ? fn_.valueOf(index) : nullptr;
  if (!in || !idx || in->type.shape.dims.size() != 2 || idx->type.shape.dims.size() != 2) return;
  if (dim != -1 && dim != 1) return;
  const auto& id = idx->type.shape.dims;
  const auto& xd = in->type.shape.dims;
  if (!id[0] || !id[1] || !xd[1]) return;
  const std::int64_t rows = *id[0], k = *id[1], src_cols = *xd[1];
  const std::int64_t eb = elementBytes(in->type.dtype);
  const int p = pointOf(c);
  // Each scratch is live with the gather's output, its index, the other scratches and (while it is
  // read) its source; one made after the source was copied may take the source's buffer.
  std::vector<int> made;
  auto scratch = [&](const std::string& what, std::int64_t bytes, bool with_source) {
    Interval& iv = addLoweringScratch("gather " + what + " (compiler scratch)", bytes, with_source ? p - 1 : p, p,
                                      call.loc.line, made);
    for (int e : {c, index, with_source ? call.args[0] : -1})
      if (e >= 0 && X(e).value >= 0)
        if (auto t = value_tile_.find(root(X(e).value)); t != value_tile_.end()) iv.no_share.push_back(t->second);
  };
  if (platform_ == Platform::A2A3) {  // the row loop reads the source throughout
    scratch("row", k * eb, true);
    scratch("row index scratch", k * 4, true);
    return;
  }
  // A GM tensor named as the source is loaded contiguous; a view or a tile is copied into one, and
  // the copy is what the gather reads.
  const bool copied = X(call.args[0]).kind != ExprKind::Name || in->on_chip;
  if (copied) scratch("contiguous source", rows * src_cols * eb, true);
  if (rows > 1) scratch("flat index", rows * k * 4, !copied);
  scratch("index scratch", rows * k * 4, !copied);
}

// Tensor-level compute in incore code loads its GM tensor operands into on-chip tiles first.
void RegionEstimator::implicitLoads(int c, bool mm) {
  const Expr& call = X(c);
  const Value* result = call.value >= 0 ? &V(call.value) : nullptr;
  if (!result || !result->on_chip || result->type.kind != ValueKind::Tensor) return;
  std::string_view op = opName(call);
  if (op == "load" || op == "create" || op == "full" || op == "create_tile") return;
  if (isViewOp(op)) return;  // a view of a GM tensor is the load of the viewed region (a tile itself)
  int p = pointOf(c);
  std::set<const Value*> loaded;  // `pl.add(x, x)` loads x once
  for (int a : call.args) {
    const Value* v = fn_.valueOf(a);
    bool here = v && v->on_chip && !fromAnotherScope(*v);
    if (!v || here || v->type.kind != ValueKind::Tensor) continue;
    if (!loaded.insert(v).second) {
      implicit_mat_[a] = mm;
      continue;
    }
    std::optional<std::int64_t> b = v->type.bytes();
    if (!b) continue;
    const std::string what = v->name.empty() ? std::string(file_.text(X(a))) : v->name;
    // A tensor the kernel receives (a parameter, or a value computed outside its scope) read by a
    // vector op is loaded once, whole, at the kernel's entry (ConvertTensorToTileOps phase 1) and
    // held until its last read; a matmul operand is loaded where it is read.
    if (!mm && !inRegion(v->def_stmt)) {
      const int last = holdUntil(-1, p, call.stmt);  // defined before every loop of the kernel
      auto [it, fresh] = entry_loads_.try_emplace(v, static_cast<int>(tiles_.size()));
      if (fresh) {
        addTile(what + " (loaded at kernel entry)", *b, MemSpace::Vec, region_.first * kSub - 1, last,
                X(a).loc.line, true);
        tiles_.back().iv.is_load = true;
      } else {
        Interval& iv = tiles_[static_cast<std::size_t>(it->second)].iv;
        iv.last = std::max(iv.last, last);
      }
      implicit_mat_[a] = false;
      continue;
    }
    const int ploop = pipelineLoop(call.stmt);
    const int stages = stagesOf(ploop, mm ? MemSpace::Mat : MemSpace::Vec);
    for (int st = 0; st < stages; ++st) {
      addTile(what + " (implicit load)" + stageSuffix(st), *b,
              mm ? MemSpace::Mat : MemSpace::Vec, p - 1, p, X(a).loc.line, true);
      tiles_.back().iv.is_load = true;
      if (stages > 1) tagStage(tiles_.back().iv, ploop, st);
    }
    implicit_mat_[a] = mm;
  }
}

MemSpace RegionEstimator::operandSpace(int a) const {
  auto it = implicit_mat_.find(a);
  if (it != implicit_mat_.end()) return it->second ? MemSpace::Mat : MemSpace::Vec;
  const Value* v = fn_.valueOf(a);
  if (!v) return MemSpace::Unknown;
  if (X(a).value >= 0) return tileSpace(root(X(a).value));
  return spaceOf(*v);
}

// AutoTileMatmulL0: Mat-resident operands are extracted into Left / Right L0 tiles; the whole K
// when it fits, else K chunks double-buffered by the pipelined K loop.
// AutoTileMatmulL0's output sub-tile of a fresh matmul (`matmul`, `matmul_bias`) whose [M, N] FP32 /
// INT32 accumulator overflows L0c: rows halved first, then columns, until it fits (the chooser keeps a
// whole row of N where it can: [256, 256] FP32 on a2a3's 128 KB L0c is [128, 256]). Other matmuls,
// and outputs that fit, keep [M, N].
std::pair<std::int64_t, std::int64_t> RegionEstimator::l0cSubTile(std::string_view op, std::int64_t M,
                                                                   std::int64_t N) const {
  if (op != "matmul" && op != "matmul_bias") return {M, N};
  const std::int64_t cap = capacityBytes(platform_, "Acc");
  auto bytes = [](std::int64_t m, std::int64_t n) { return (m + 15) / 16 * 16 * n * 4; };
  while (cap > 0 && bytes(M, N) > cap && M > 16 && M % 2 == 0) M /= 2;
  while (cap > 0 && bytes(M, N) > cap && N > 16 && N % 2 == 0) N /= 2;
  return {M, N};
}

void RegionEstimator::autoTileL0(int c) {
  const Expr& call = X(c);
  std::string_view op = opName(call);
  std::size_t li = op.find("_acc") != std::string_view::npos ? 1 : 0;
  if (call.args.size() < li + 2) return;
  int la = call.args[li], ra = call.args[li + 1];
  if (operandSpace(ra) != MemSpace::Mat) return;
  MemSpace ls = operandSpace(la);
  if (ls != MemSpace::Mat && ls != MemSpace::Vec) return;
  const Value* l = fn_.valueOf(la);
  const Value* r = fn_.valueOf(ra);
  if (!l || !r || !l->type.shape.fullyStatic() || !r->type.shape.fullyStatic()) return;
  const auto& ld = l->type.shape.dims;
  const auto& rd = r->type.shape.dims;
  if (ld.size() < 2 || rd.size() < 2) return;
  bool a_trans = false, b_trans = false;
  for (const auto& [k, v] : call.kwargs) {
    bool yes = X(v).kind == ExprKind::Bool && X(v).number.isInt() && X(v).number.i == 1;
    if (k == "a_trans") a_trans = yes;
    if (k == "b_trans") b_trans = yes;
  }
  std::int64_t M = a_trans ? *ld[ld.size() - 1] : *ld[ld.size() - 2];
  std::int64_t K = a_trans ? *ld[ld.size() - 2] : *ld[ld.size() - 1];
  std::int64_t N = b_trans ? *rd[rd.size() - 2] : *rd[rd.size() - 1];
  std::int64_t ba = elementBytes(l->type.dtype), bb = elementBytes(r->type.dtype);
  std::int64_t cap_l = capacityBytes(platform_, "Left"), cap_r = capacityBytes(platform_, "Right");
  // M/N tiling: a fresh matmul whose [M, N] output overflows L0c is cut into [m, n] sub-tiles, each
  // computed whole before the next (the grid a pipelined nest, so the operand that moves with it is
  // double-buffered even when the full K fits at once).
  const auto [m, n] = l0cSubTile(op, M, N);
  const int a_moves = m < M ? 2 : 1, b_moves = n < N ? 2 : 1;
  M = m;
  N = n;
  std::int64_t k = K;
  auto fits = [&](std::int64_t kk) {
    int depth = kk < K ? 2 : 1;
    return std::max(depth, a_moves) * M * kk * ba <= cap_l && std::max(depth, b_moves) * kk * N * bb <= cap_r;
  };
  while (k > 16 && !fits(k) && k % 2 == 0) k /= 2;
  int depth = k < K ? 2 : 1;
  int p = pointOf(c);
  std::string base = call.value >= 0 ? displayName(call.value) : "matmul";
  // LowerPipelineLoops unrolls a pl.pipeline(stage=N) body N deep, the operand extracts with it:
  // each stage holds its own L0 tiles.
  const int ploop = pipelineLoop(call.stmt);
  const int stages = stagesOf(ploop, MemSpace::Left);
  for (int st = 0; st < stages; ++st)
    for (int d = 0; d < std::max({depth, a_moves, b_moves}); ++d) {
      std::string suffix = (depth > 1 ? " #" + std::to_string(d + 1) : "") + stageSuffix(st);
      if (d < std::max(depth, a_moves)) {
        addTile(base + " L0A [" + std::to_string(M) + ", " + std::to_string(k) + "]" + suffix, M * k * ba,
                MemSpace::Left, p - 1, p, call.loc.line, true);
        if (stages > 1) tagStage(tiles_.back().iv, ploop, st);
      }
      if (d < std::max(depth, b_moves)) {
        addTile(base + " L0B [" + std::to_string(k) + ", " + std::to_string(N) + "]" + suffix, k * N * bb,
                MemSpace::Right, p - 1, p, call.loc.line, true);
        if (stages > 1) tagStage(tiles_.back().iv, ploop, st);
      }
    }
}

}  // namespace portcheck::sram::detail
