#include "sram/sram_estimator.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "dsl/type_rules.h"

namespace portcheck::sram {

using dsl::Expr;
using dsl::ExprKind;
using dsl::Function;
using dsl::MemSpace;
using dsl::Value;
using dsl::ValueKind;

namespace {

// The bytes of `tile`'s elements in the element type of the GM tensor `gm`: what a pl.load or pl.store
// of the whole tile moves through GM. 0 when either is unknown.
std::int64_t gmBytes(const dsl::TypeInfo& tile, const Value& gm) {
  dsl::TypeInfo moved = tile;
  if (gm.type.dtype != dsl::DType::Unknown) moved.dtype = gm.type.dtype;
  return moved.bytes().value_or(0);
}

constexpr int kSub = 64;  // program points per statement (calls of one statement in evaluation order)

bool isCubeSpace(MemSpace s) {
  return s == MemSpace::Mat || s == MemSpace::Left || s == MemSpace::Right || s == MemSpace::Acc ||
         s == MemSpace::Bias;
}

std::string_view opName(const Expr& call) { return call.opName(); }

bool isMatmulOp(std::string_view op) {
  return op == "matmul" || op == "matmul_acc" || op == "matmul_bias" || op == "gemv" || op == "gemv_acc" ||
         op == "gemv_bias" || op == "batch_matmul" || op == "batch_matmul_acc";
}

// Ops whose result aliases their (first) operand's buffer.
bool isViewOp(std::string_view op) {
  return op == "reshape" || op == "slice" || op == "view" || op == "yield_" || op == "reinterpret_view" ||
         op == "set_validshape" || op == "transpose_view";
}

// Ops registered set_output_reuses_input(0) in pypto (src/ir/op/tile_ops/*.cpp): the result *is* the
// buffer of their first operand (`acc = pl.matmul_acc(acc, a, b)` accumulates in place).
bool reusesFirstInput(std::string_view op) {
  return op == "matmul_acc" || op == "gemv_acc" || op == "batch_matmul_acc" || op == "matmul_mx_acc" ||
         op == "fillpad_inplace" || op == "gather_row" || op == "scatter" || op == "scatter_mask" ||
         op == "scatter_update";
}

// Ops registered not_inplace_safe() in pypto (src/ir/op/tile_ops/*.cpp): MemoryReuse never puts
// their output in the buffer of one of their inputs, even when the input's last use is the op.
bool isNotInplaceSafe(std::string_view op) {
  static const std::unordered_set<std::string_view> kOps = {
      "ands",        "col_argmax",      "col_argmin", "concat",         "extract",        "fillpad_expand",
      "fmod",        "fmods",           "gather",     "gather_compare", "gather_mask",    "gatherb",
      "mgather",     "move",            "mrgsort",    "mrgsort_format1", "mrgsort_format2", "ors", "prelu",
      "recip",       "row_argmax",      "row_argmin", "row_max",        "row_min",        "row_prod",
      "row_sum",     "rsqrt",           "sort32",     "transpose",      "xors"};
  return kOps.count(op) > 0;
}

std::int64_t elementBytes(dsl::DType t) { return std::max(1, dsl::dtypeBits(t) / 8); }

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

FunctionPoints functionPoints(const Function& fn) {
  FunctionPoints fp;
  fp.call_point.assign(fn.exprs.size(), -1);
  std::unordered_map<int, int> per_stmt;  // calls of a statement so far
  for (int c : fn.calls) {
    int s = fn.exprs[static_cast<std::size_t>(c)].stmt;
    int k = per_stmt[s]++;
    fp.call_point[static_cast<std::size_t>(c)] = s * kSub + std::min(k, kSub - 2);
  }
  std::function<void(int, int, int)> read = [&](int e, int point, int stmt) {
    if (e < 0) return;
    const Expr& x = fn.exprs[static_cast<std::size_t>(e)];
    if (x.value >= 0 && (x.kind == ExprKind::Name || x.kind == ExprKind::Call || x.kind == ExprKind::Attribute ||
                         x.kind == ExprKind::Subscript)) {
      fp.call_reads.push_back({x.value, point, stmt});
      if (x.kind == ExprKind::Call) return;
    }
    if (x.kind == ExprKind::List || x.kind == ExprKind::Tuple || x.kind == ExprKind::Keyword ||
        x.kind == ExprKind::Subscript)
      for (int child : x.children) read(child, point, stmt);
  };
  for (int c : fn.calls) {
    const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
    const int p = fp.call_point[static_cast<std::size_t>(c)];
    for (int a : call.args) read(a, p, call.stmt);
    for (const auto& kw : call.kwargs) read(kw.second, p, call.stmt);
  }
  return fp;
}

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

  const Expr& X(int e) const { return fn_.exprs[static_cast<std::size_t>(e)]; }
  const Value& V(int v) const { return fn_.values[static_cast<std::size_t>(v)]; }
  bool inRegion(int stmt) const { return stmt >= region_.first && stmt < region_.last; }
  // A value another incore scope of the function computed: it reaches this kernel through GM
  // (OutlineIncoreScopes passes it as a Tensor parameter), however on chip it was where computed.
  bool fromAnotherScope(const Value& v) const { return v.def_stmt >= 0 && !inRegion(v.def_stmt); }

  bool isNumberedCall(int e) const { return e >= 0 && points_.call_point[static_cast<std::size_t>(e)] >= 0; }
  // The program point of call `c` (0 for an expression that is no call, as before).
  int pointOf(int c) const { return isNumberedCall(c) ? points_.call_point[static_cast<std::size_t>(c)] : 0; }

  int root(int v) const {
    for (int guard = 0; guard < 64 && alias_[static_cast<std::size_t>(v)] != v; ++guard)
      v = alias_[static_cast<std::size_t>(v)];
    return v;
  }

  void resolveAliases() {
    alias_.resize(fn_.values.size());
    for (std::size_t i = 0; i < fn_.values.size(); ++i) {
      alias_[i] = static_cast<int>(i);
      const Value& v = fn_.values[i];
      if (v.def_expr < 0) continue;
      const Expr& d = X(v.def_expr);
      int src = -1;
      if (d.kind == ExprKind::Name || d.kind == ExprKind::Attribute) src = d.value;
      else if (d.kind == ExprKind::Subscript && !d.children.empty()) {
        const Value* s = fn_.valueOf(d.children[0]);
        if (s && s->on_chip) src = X(d.children[0]).value;
      } else if (d.kind == ExprKind::Call && (isViewOp(opName(d)) || reusesFirstInput(opName(d))) &&
                 !d.args.empty()) {
        const Value* s = fn_.valueOf(d.args[0]);
        if (s && s->on_chip) src = X(d.args[0]).value;
      }
      // A view of a tensor another scope computed is not that tile (it is in GM here): a load of its own.
      const bool elsewhere = d.kind != ExprKind::Name && d.kind != ExprKind::Attribute && src >= 0 &&
                             fromAnotherScope(fn_.values[static_cast<std::size_t>(src)]) && inRegion(v.def_stmt);
      if (src >= 0 && src != static_cast<int>(i) && fn_.values[static_cast<std::size_t>(src)].on_chip && !elsewhere)
        alias_[i] = src;
      else if (src < 0 && d.kind == ExprKind::Call)
        if (int init = carriedInit(static_cast<int>(i)); init >= 0) alias_[i] = init;
    }
  }

  // The value a loop-carried rebinding (`oi = pl.add(pl.row_expand_mul(oi, a), t)` in the loop, `oi`
  // bound before it) carries on: its iter_arg, whose buffer the yielded value shares (MemoryReuse keeps
  // a loop's iter_arg, yield and return value in one buffer). -1 when the old value is still read after
  // the rebinding in the loop, or the two differ in type.
  int carriedInit(int i) const {
    const Value& v = V(i);
    if (!v.loop_carried || v.carried_loop < 0 || v.name.empty() || !v.on_chip || !inRegion(v.def_stmt)) return -1;
    const int end = fn_.stmts[static_cast<std::size_t>(v.carried_loop)].subtree_end;
    const int init = boundBefore(v.name, v.carried_loop);
    if (init < 0 || !V(init).on_chip || V(init).type.dtype != v.type.dtype || !v.type.shape.fullyStatic() ||
        !V(init).type.shape.fullyStatic() || V(init).type.shape.dims != v.type.shape.dims)
      return -1;
    for (int s : V(init).uses)
      if (s > v.def_stmt && s < end) return -1;
    return init;
  }

  // The value `name` was last bound to in this kernel before the loop statement `loop_stmt`, or -1:
  // what a rebinding of the name in the loop carries on (its iter_arg, ConvertToSSA).
  int boundBefore(const std::string& name, int loop_stmt) const {
    if (name.empty()) return -1;
    int found = -1;
    for (std::size_t j = 0; j < fn_.values.size(); ++j) {
      const Value& o = fn_.values[j];
      if (o.name == name && o.def_stmt < loop_stmt && inRegion(o.def_stmt) &&
          (found < 0 || o.def_stmt >= V(found).def_stmt))
        found = static_cast<int>(j);
    }
    return found;
  }

  void collectUses() {
    uses_.assign(fn_.values.size(), {});
    for (const auto& [value, point, stmt] : points_.call_reads)
      uses_[static_cast<std::size_t>(root(value))].push_back({point, stmt});
    // Reads outside a call (return x, y = x, out[:] = x): at the end of their statement.
    for (std::size_t i = 0; i < fn_.values.size(); ++i) {
      int r = root(static_cast<int>(i));
      for (int s : fn_.values[i].uses) {
        auto& u = uses_[static_cast<std::size_t>(r)];
        bool seen = std::any_of(u.begin(), u.end(), [&](const auto& pu) { return pu.second == s; });
        if (!seen) u.push_back({s * kSub + kSub - 1, s});
      }
    }
  }

  // Last point a value defined at `def_stmt` is held when read at (point, stmt).
  int holdUntil(int def_stmt, int point, int stmt) const {
    int last = point;
    for (int l = fn_.stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0 && inRegion(l);
         l = fn_.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
      if (def_stmt >= 0 && (def_stmt == l || fn_.contains(l, def_stmt))) break;
      last = std::max(last, (fn_.stmts[static_cast<std::size_t>(l)].subtree_end - 1) * kSub + kSub - 1);
    }
    return last;
  }

  MemSpace spaceOf(const Value& v) const {
    MemSpace s = v.type.space;
    if (s == MemSpace::Unknown || s == MemSpace::DDR) s = MemSpace::Vec;
    return s;
  }

  // A view of a GM tensor taken inside the kernel (`t[a:b, c:d]`, `pl.slice(t, ...)`): the compiler
  // loads the viewed region into a tile (ConvertTensorToTile), sized by the view, not by `t`.
  bool isGmView(int v) const {
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

  std::string viewSource(int v) const {
    const Expr& d = X(V(v).def_expr);
    int base = d.kind == ExprKind::Subscript ? d.children[0] : d.args[0];
    const Value* b = fn_.valueOf(base);
    return b ? b->name : std::string();
  }

  // The space a value's tile lands in: a GM view read by a matmul is loaded into Mat.
  MemSpace tileSpace(int r) const {
    if (mat_operand_.count(r) && isGmView(r)) return MemSpace::Mat;
    return spaceOf(V(r));
  }

  // Which roots are matmul operands (left / right), and which are read as data at all (a view used
  // only as the destination of pl.assemble / pl.store is not loaded).
  void classifyOperands() {
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
  std::unordered_set<int> mat_operand_, data_use_;

  void addTile(std::string name, std::int64_t bytes, MemSpace space, int def, int last, int line,
               bool implicit = false) {
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
  std::optional<std::int64_t> accumulatorBytes(const dsl::TypeInfo& type) const {
    std::optional<std::int64_t> bytes = type.bytes();
    const auto& dims = type.shape.dims;
    if (!bytes || dims.size() < 2 || !dims[dims.size() - 2] || *dims[dims.size() - 2] <= 0) return bytes;
    const std::int64_t rows = *dims[dims.size() - 2];
    const std::int64_t align = type.dtype == dsl::DType::Int32 && platform_ == Platform::A2A3 ? 32 : 16;
    return *bytes / rows * ((rows + align - 1) / align * align);
  }

  std::string displayName(int v) const {
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

  void collectTiles() {
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
      // iterations) exists N times at once, each in its own buffer.
      // (an accumulator rebound in the body, `acc = pl.matmul_acc(acc, ...)`, is carried under its name)
      // (also when its name is bound before the loop: `acc = pl.matmul_acc(acc, ...)` in the body)
      const int ploop = pipelineLoop(v.def_stmt);
      // Rebinding in the loop a name the kernel bound before it makes it an iter_arg (ConvertToSSA); the
      // same name bound after the loop, or in another scope (another kernel once outlined), does not.
      bool carried = v.loop_carried || (ploop >= 0 && boundBefore(v.name, ploop) >= 0);
      for (std::size_t j = 0; j < fn_.values.size() && !carried && ploop >= 0; ++j)
        carried = fn_.values[j].loop_carried && root(static_cast<int>(j)) == r;
      // A cube accumulator is not tagged by LowerPipelineLoops (the one cube retires each MAD before
      // the next, so the stages' accumulators coalesce by lifetime into one buffer), unless a view of
      // it in the body is (pl.slice of the result: MemoryReuse gives the view's buffer group its
      // tag); the clones SkewCrossCorePipeline makes of a loop crossing cores both ways are tagged whole.
      const bool accumulator = space == MemSpace::Acc && opName(dx).rfind("matmul", 0) == 0 &&
                               !(ploop >= 0 && (crossesBothWays(ploop) || viewedIn(r, ploop)));
      if (int depth = ploop >= 0 ? stageDepth(ploop, space) : 1; depth > 1 && !carried && !accumulator) {
        const int first = static_cast<int>(tiles_.size()) - 1;
        tagStage(tiles_[static_cast<std::size_t>(first)].iv, ploop, 0);
        for (int d = 1; d < depth; ++d) {
          Tile copy = tiles_[static_cast<std::size_t>(first)];
          copy.iv.name += stageSuffix(d);
          copy.iv.implicit = true;
          copy.iv.id = static_cast<int>(tiles_.size());
          tagStage(copy.iv, ploop, d);
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

  // The static shape of the GM tensor a (GM) value views, following slices / subscripts / views to
  // the tensor they were taken from; empty when unknown.
  std::vector<std::int64_t> gmExtent(int v) const {
    for (int guard = 0; guard < 16 && v >= 0; ++guard) {
      const Value& val = V(v);
      int base = -1;
      if (val.def_expr >= 0) {
        const Expr& d = X(val.def_expr);
        if (d.kind == ExprKind::Subscript && !d.children.empty()) base = d.children[0];
        else if (d.kind == ExprKind::Call && (opName(d) == "slice" || opName(d) == "view") && !d.args.empty())
          base = d.args[0];
        else if (d.kind == ExprKind::Name) base = val.def_expr;
      }
      int next = base >= 0 ? X(base).value : -1;
      if (next < 0 || next == v || V(next).on_chip) {
        std::vector<std::int64_t> out;
        if (val.type.shape.fullyStatic())
          for (const dsl::Dim& d : val.type.shape.dims) out.push_back(*d);
        return out;
      }
      v = next;
    }
    return {};
  }

  static void clampExtent(std::vector<std::int64_t>& into, const std::vector<std::int64_t>& by) {
    if (by.empty()) return;
    if (into.empty()) {
      into = by;
      return;
    }
    if (into.size() != by.size()) return;
    for (std::size_t i = 0; i < into.size(); ++i) into[i] = std::min(into[i], by[i]);
  }

  // How far each tile could grow (for the FUSE advice): loads and views from their GM tensor, stores
  // and assembles into their destination, then along same-shaped operands and results, and through
  // a matmul's M (left operand) and N (right operand).
  void propagateExtents() {
    auto tileOf = [&](int e) -> Tile* {
      if (e < 0 || X(e).value < 0) return nullptr;
      auto it = value_tile_.find(root(X(e).value));
      return it == value_tile_.end() ? nullptr : &tiles_[static_cast<std::size_t>(it->second)];
    };
    auto rankMatched = [](std::vector<std::int64_t> e, const Tile& t) {
      return e.size() == t.iv.shape.size() ? e : std::vector<std::int64_t>{};
    };
    for (const auto& [r, ti] : value_tile_) {
      Tile& t = tiles_[static_cast<std::size_t>(ti)];
      if (t.iv.shape.empty()) continue;
      if (isGmView(r)) {
        const Expr& d = X(V(r).def_expr);
        int base = d.kind == ExprKind::Subscript ? d.children[0] : d.args[0];
        if (X(base).value >= 0) clampExtent(t.iv.extent, rankMatched(gmExtent(X(base).value), t));
      }
    }
    for (int c : fn_.calls) {
      const Expr& call = X(c);
      if (!inRegion(call.stmt)) continue;
      std::string_view op = opName(call);
      if (op == "load" && !call.args.empty() && X(call.args[0]).value >= 0)
        if (Tile* t = tileOf(c); t && !t->iv.shape.empty())
          clampExtent(t->iv.extent, rankMatched(gmExtent(X(call.args[0]).value), *t));
      int src = -1, dst = -1;
      if (op == "store" && call.args.size() >= 3) src = call.args[0], dst = call.args[2];
      if (op == "assemble" && call.args.size() >= 2) src = call.args[1], dst = call.args[0];
      if (src >= 0 && X(dst).value >= 0)
        if (Tile* t = tileOf(src); t && !t->iv.shape.empty())
          clampExtent(t->iv.extent, rankMatched(gmExtent(X(dst).value), *t));
    }
    for (int pass = 0; pass < 3; ++pass)
      for (int c : fn_.calls) {
        const Expr& call = X(c);
        if (!inRegion(call.stmt)) continue;
        Tile* out = tileOf(c);
        if (!out || out->iv.shape.empty()) continue;
        std::string_view op = opName(call);
        if (isMatmulOp(op)) {
          std::size_t li = op.find("_acc") != std::string_view::npos ? 1 : 0;
          if (call.args.size() < li + 2 || out->iv.shape.size() != 2) continue;
          Tile* l = tileOf(call.args[li]);
          Tile* r = tileOf(call.args[li + 1]);
          if (!l || !r || l->iv.extent.size() != 2 || r->iv.extent.size() != 2) continue;
          bool a_trans = false, b_trans = false;
          for (const auto& [k, v] : call.kwargs) {
            bool yes = X(v).kind == ExprKind::Bool && X(v).number.isInt() && X(v).number.i == 1;
            if (k == "a_trans") a_trans = yes;
            if (k == "b_trans") b_trans = yes;
          }
          clampExtent(out->iv.extent, {l->iv.extent[a_trans ? 1 : 0], r->iv.extent[b_trans ? 0 : 1]});
          continue;
        }
        for (int a : call.args) {
          Tile* in = tileOf(a);
          if (!in || in == out || in->iv.shape != out->iv.shape) continue;
          clampExtent(out->iv.extent, in->iv.extent);
          clampExtent(in->iv.extent, out->iv.extent);
        }
      }
  }

  std::unordered_map<int, int> value_tile_;
  std::unordered_map<int, std::vector<int>> stage_copies_;  // tile -> its copies for pipeline stages 2..N

  // The tile standing for `tile` in pipeline stage `stage` (0-based): its copy there, or itself.
  int inStage(int tile, int stage) const {
    auto it = stage_copies_.find(tile);
    if (stage == 0 || it == stage_copies_.end() || stage > static_cast<int>(it->second.size())) return tile;
    return it->second[static_cast<std::size_t>(stage - 1)];
  }

  // Keeps `a` out of `b`'s buffer, and likewise their copies in every pipeline stage.
  void forbidSharing(int a, int b) {
    auto it = stage_copies_.find(a);
    const int stages = 1 + (it == stage_copies_.end() ? 0 : static_cast<int>(it->second.size()));
    for (int st = 0; st < stages; ++st) tiles_[static_cast<std::size_t>(inStage(a, st))].iv.no_share.push_back(inStage(b, st));
  }

  // The innermost pl.pipeline loop statement of the kernel around `stmt` (-1 when none), and its stage.
  int pipelineLoop(int stmt) const {
    if (stmt < 0) return -1;
    for (int l = fn_.stmts[static_cast<std::size_t>(stmt)].enclosing_loop; l >= 0 && inRegion(l);
         l = fn_.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
      const dsl::Stmt& ls = fn_.stmts[static_cast<std::size_t>(l)];
      if (ls.loop >= 0 && fn_.loops[static_cast<std::size_t>(ls.loop)].iter == dsl::LoopIter::PlPipeline) return l;
    }
    return -1;
  }
  // Whether a view of the tile `r` (pl.slice, pl.reshape, ...) is taken inside the loop `loop_stmt`.
  bool viewedIn(int r, int loop_stmt) const {
    const int end = fn_.stmts[static_cast<std::size_t>(loop_stmt)].subtree_end;
    for (std::size_t j = 0; j < fn_.values.size(); ++j) {
      const Value& w = fn_.values[j];
      if (static_cast<int>(j) == r || w.def_expr < 0 || w.def_stmt <= loop_stmt || w.def_stmt >= end) continue;
      if (X(w.def_expr).kind == ExprKind::Call && isViewOp(opName(X(w.def_expr))) && root(static_cast<int>(j)) == r)
        return true;
    }
    return false;
  }
  // How many copies the pipeline loop `loop` (-1: none) makes of what it defines in `space`.
  int stagesOf(int loop, MemSpace space) { return loop >= 0 ? stageDepth(loop, space) : 1; }

  static std::string stageSuffix(int stage) {
    return stage > 0 ? " (pipeline stage " + std::to_string(stage + 1) + ")" : std::string();
  }

  // How many copies of its body the compiler makes of a pl.pipeline loop on the core owning `space`.
  // A loop whose body crosses cores both ways (a cube result read by vector code and a vector result
  // read by a matmul, each defined by a statement of the body itself: a tpush and a tpop on each core)
  // is handled by SkewCrossCorePipeline before LowerPipelineLoops: on the AIV, which pops first, it is
  // demoted to a plain loop (one copy); on the AIC the producer is skewed D = max(2, stage - 1)
  // iterations ahead (D produce and D consume clones) when there is one message each way and the static
  // trip count allows it (trip % D == 0, trip >= 2D, else the largest D that does), else demoted too.
  int stageDepth(int loop_stmt, MemSpace space) {
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

  // A cube result: what vector code reading it pops from the AIC.
  bool cubeResult(int r) const {
    const Value& v = V(r);
    return v.def_expr >= 0 && X(v.def_expr).kind == ExprKind::Call && isMatmulOp(opName(X(v.def_expr)));
  }
  // A tile the vector cores computed (not a load, a view or a matmul result): what a matmul reading it
  // pops from the AIV.
  bool vectorComputed(int r) const {
    const Value& v = V(r);
    if (v.def_expr < 0 || X(v.def_expr).kind != ExprKind::Call || !v.on_chip) return false;
    std::string_view op = opName(X(v.def_expr));
    return !isMatmulOp(op) && op != "load" && !isViewOp(op) && tileSpace(r) == MemSpace::Vec;
  }

  bool crossesBothWays(int loop_stmt) {
    const CrossCoreLoop& cc = crossCoreLoop(loop_stmt);
    return !cc.to_vector.empty() && !cc.to_cube.empty();
  }

  // The values a pl.pipeline loop's body hands across cores, each way.
  struct CrossCoreLoop {
    std::set<int> to_vector;  // cube results read by vector code
    std::set<int> to_cube;    // vector results read by a matmul
  };
  std::unordered_map<int, CrossCoreLoop> cross_core_loops_;

  const CrossCoreLoop& crossCoreLoop(int loop_stmt) {
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

  // Marks a tile as defined by clone `stage` of the pl.pipeline loop `loop_stmt`. Group ids follow the
  // order LowerPipelineLoops lowers loops in (post-order: inner loops first, then in program order).
  void tagStage(Interval& iv, int loop_stmt, int stage) const {
    if (loop_stmt < 0) return;
    const dsl::Stmt& s = fn_.stmts[static_cast<std::size_t>(loop_stmt)];
    iv.pipe_group = s.subtree_end * 64 + (63 - std::min(63, s.depth));
    iv.pipe_stage = stage;
  }

  // LowerPipelineLoops makes trip / stage main-loop iterations of `stage` clones and a tail of
  // trip % stage clones (LowerStatic), each its own group: never more clones at once than the loop
  // has iterations when the trip count is known.
  int pipelineDepth(int loop_stmt) const {
    const dsl::Loop& loop = fn_.loops[static_cast<std::size_t>(fn_.stmts[static_cast<std::size_t>(loop_stmt)].loop)];
    int stages = loop.stage.isInt() && loop.stage.i > 1 && loop.stage.i <= 8 ? static_cast<int>(loop.stage.i) : 1;
    if (loop.trip_count) stages = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(stages, *loop.trip_count)));
    return stages;
  }

  // MemoryReuse keeps the output of a not_inplace_safe op, and of a widening pl.cast (the write
  // cursor would outrun the read cursor), out of its inputs' buffers.
  void forbidInplace(int c) {
    const Expr& call = X(c);
    if (call.value < 0) return;
    std::string_view op = opName(call);
    auto out = value_tile_.find(root(call.value));
    if (out == value_tile_.end()) return;
    for (std::size_t i = 0; i < call.args.size(); ++i) {
      int a = call.args[i];
      if (X(a).value < 0) continue;
      auto in = value_tile_.find(root(X(a).value));
      if (in == value_tile_.end() || in->second == out->second) continue;
      bool forbid = isNotInplaceSafe(op);
      if (op == "cast" && i == 0)
        forbid = dsl::dtypeBits(V(call.value).type.dtype) > dsl::dtypeBits(V(X(a).value).type.dtype);
      if (forbid) forbidSharing(out->second, in->second);
    }
  }

  // Tensor-level ops whose PTO instruction needs a scratch buffer get one from the compiler (pypto
  // op_conversion_registry.cpp), a Vec tile.create the program never declares: a reduction
  // pl.row_max(x) / row_sum / row_min / row_prod one of x's shape with its last dimension raised to 128
  // when narrower (or dynamic) (RegisterReductionOps); the arg reductions row_/col_argmax / argmin one
  // of x's exact shape; pl.rsqrt(x, high_precision=True) and pl.xor(a, b) / pl.xors one shaped like
  // their first operand (AppendScratchTile); pl.mrgsort of 2-4 lists one shaped like its result. The
  // tile forms take the scratch as an argument, which the program declares itself. Inside pl.pipeline(stage=N) each stage holds its own.
  void implicitScratch(int c) {
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
  void compareScratch(int c) {
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
  Interval& addLoweringScratch(std::string name, std::int64_t bytes, int def, int last, int line, std::vector<int>& made) {
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
  void gatherScratch(int c) {
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
  void implicitLoads(int c, bool mm) {
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
  std::unordered_map<int, bool> implicit_mat_;
  std::unordered_map<const Value*, int> entry_loads_;  // kernel input -> the tile its entry load makes

  MemSpace operandSpace(int a) const {
    auto it = implicit_mat_.find(a);
    if (it != implicit_mat_.end()) return it->second ? MemSpace::Mat : MemSpace::Vec;
    const Value* v = fn_.valueOf(a);
    if (!v) return MemSpace::Unknown;
    if (X(a).value >= 0) return tileSpace(root(X(a).value));
    return spaceOf(*v);
  }

  // AutoTileMatmulL0: Mat-resident operands are extracted into Left / Right L0 tiles; the whole K
  // when it fits, else K chunks double-buffered by the pipelined K loop.
  void autoTileL0(int c) {
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
    std::int64_t k = K;
    auto fits = [&](std::int64_t kk) {
      int depth = kk < K ? 2 : 1;
      return depth * M * kk * ba <= cap_l && depth * kk * N * bb <= cap_r;
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
      for (int d = 0; d < depth; ++d) {
        std::string suffix = (depth > 1 ? " #" + std::to_string(d + 1) : "") + stageSuffix(st);
        addTile(base + " L0A [" + std::to_string(M) + ", " + std::to_string(k) + "]" + suffix, M * k * ba,
                MemSpace::Left, p - 1, p, call.loc.line, true);
        if (stages > 1) tagStage(tiles_.back().iv, ploop, st);
        addTile(base + " L0B [" + std::to_string(k) + ", " + std::to_string(N) + "]" + suffix, k * N * bb,
                MemSpace::Right, p - 1, p, call.loc.line, true);
        if (stages > 1) tagStage(tiles_.back().iv, ploop, st);
      }
  }

  // A cube result read by a vector op crosses to the AIV core through the pipe ring.
  void markCrossing(int c, bool mm) {
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
      if (t.space == MemSpace::Acc && op != "store" && op != "move" && !isViewOp(op)) {
        t.crossing = true;
        const bool view = root(X(a).value) != X(a).value;
        const std::optional<std::int64_t> b = view ? v->type.bytes() : std::optional<std::int64_t>(t.iv.bytes);
        t.crossing_bytes = std::max(t.crossing_bytes, b.value_or(t.iv.bytes));
      }
    }
  }

  const dsl::Scope* scope() const {
    return region_.scope >= 0 ? &fn_.scopes[static_cast<std::size_t>(region_.scope)] : nullptr;
  }

  SpaceEstimate packSpace(MemSpace space, std::vector<Interval> ivs, std::int64_t reserved) {
    SpaceEstimate s;
    s.space = std::string(dsl::memSpaceName(space));
    const bool l0 = space == MemSpace::Left || space == MemSpace::Right || space == MemSpace::Acc;
    Packing p = pack(ivs, reserved, SpaceLimits{capacityBytes(platform_, dsl::memSpaceName(space)), l0});
    s.hwm = p.hwm;
    s.reserved = reserved;
    s.buffers = p.buffers;
    s.capacity = capacityBytes(platform_, s.space);
    std::stable_sort(ivs.begin(), ivs.end(), [](const Interval& a, const Interval& b) { return a.bytes > b.bytes; });
    s.tiles = std::move(ivs);
    return s;
  }

  // Each call of an inline function in the region holds the callee's footprint at the call.
  void addInlinedCalls() {
    if (!inlined_) return;
    for (int c : fn_.calls) {
      const Expr& call = X(c);
      if (!inRegion(call.stmt) || call.callee_file < 0 || call.callee_function < 0) continue;
      const InlineFootprint* f = inlined_(call.callee_file, call.callee_function);
      if (!f) continue;
      int point = isNumberedCall(c) ? pointOf(c) : call.stmt * kSub;
      std::string name = "inlined " + std::string(file_.text(X(call.children.empty() ? c : call.children[0])));
      for (const auto& [space, bytes] : f->spaces)
        if (bytes > 0) addTile(name, bytes, space, point, point, call.loc.line, true);
      if (f->cube) has_cube_op_ = true;
    }
  }

  std::vector<KernelEstimate> assemble() {
    bool mixed = has_cube_op_ && has_vector_tile_;
    const dsl::Scope* sc = scope();
    bool split = sc && !sc->split_mode.empty();
    std::int64_t slots = sc && sc->cross_core_slots.isInt() ? sc->cross_core_slots.i : 2;
    // One pipe serves both directions: its slot fits the largest tile crossing either way. Each core
    // reserves the ring it receives into: the AIV in Vec for cube results, the AIC in Mat for vector
    // results (aic_initialize_pipe dir_mask, reserve_buffer).
    std::int64_t slot = 0;
    bool to_vector = false, to_cube = false;
    for (const Tile& t : tiles_)
      if (t.crossing || t.to_cube) {
        if (t.to_cube) slot = std::max(slot, alignUp(t.iv.bytes));
        if (t.crossing) slot = std::max(slot, alignUp(t.crossing_bytes));
        to_vector |= t.crossing;
        to_cube |= t.to_cube;
      }
    std::int64_t ring = to_vector ? slot * slots : 0;
    std::int64_t cube_ring = to_cube ? slot * slots : 0;

    int line = region_.stmt >= 0 ? fn_.stmts[static_cast<std::size_t>(region_.stmt)].loc.line : fn_.loc.line;
    auto make = [&](std::string name, std::string core) {
      KernelEstimate k;
      k.kernel = std::move(name);
      k.core = std::move(core);
      k.file = file_.path;
      k.line = line;
      k.unknown = unknown_;
      k.split = mixed;
      return k;
    };
    std::vector<KernelEstimate> out;
    if (!mixed) {
      out.push_back(make(region_.kernel_name, has_cube_op_ ? "AIC" : "AIV"));
      for (std::string_view sn : kMemorySpaces) {
        MemSpace ms = dsl::memSpaceFromName(sn);
        std::vector<Interval> ivs;
        for (const Tile& t : tiles_)
          if (t.space == ms) ivs.push_back(t.iv);
        if (!ivs.empty()) out.back().spaces.push_back(packSpace(ms, std::move(ivs), 0));
      }
      return out;
    }
    KernelEstimate aic = make(region_.kernel_name + "_aic", "AIC");
    KernelEstimate aiv = make(region_.kernel_name + "_aiv", "AIV");
    for (std::string_view sn : kMemorySpaces) {
      MemSpace ms = dsl::memSpaceFromName(sn);
      std::vector<Interval> ivs;
      for (const Tile& t : tiles_) {
        if (t.space != ms) continue;
        Interval iv = t.iv;
        if (ms == MemSpace::Vec && split) iv.bytes = (iv.bytes + 1) / 2;  // each AIV holds half
        ivs.push_back(iv);
      }
      if (ivs.empty() && !(ms == MemSpace::Vec && ring > 0) && !(ms == MemSpace::Mat && cube_ring > 0)) continue;
      if (isCubeSpace(ms)) {
        aic.spaces.push_back(packSpace(ms, std::move(ivs), ms == MemSpace::Mat ? cube_ring : 0));
        if (ms == MemSpace::Mat && cube_ring > 0) aic.spaces.back().ring_slot = slot;
      } else {
        aiv.spaces.push_back(packSpace(ms, std::move(ivs), ms == MemSpace::Vec ? ring : 0));
        if (ms == MemSpace::Vec && ring > 0) aiv.spaces.back().ring_slot = slot;
      }
    }
    out.push_back(std::move(aic));
    out.push_back(std::move(aiv));
    return out;
  }
};

}  // namespace

const SpaceEstimate* KernelEstimate::space(std::string_view s) const {
  for (const SpaceEstimate& e : spaces)
    if (e.space == s) return &e;
  return nullptr;
}

namespace {

// How many copies of a statement pl.unroll makes: the product of the static trip counts of the
// pl.unroll loops around it in its function (an unknown count counts once).
int unrollCopies(const Function& fn, int stmt) {
  std::int64_t copies = 1;
  for (int l = stmt >= 0 ? fn.stmts[static_cast<std::size_t>(stmt)].enclosing_loop : -1; l >= 0;
       l = fn.stmts[static_cast<std::size_t>(l)].enclosing_loop) {
    const dsl::Stmt& s = fn.stmts[static_cast<std::size_t>(l)];
    if (s.loop < 0) continue;
    const dsl::Loop& loop = fn.loops[static_cast<std::size_t>(s.loop)];
    if (loop.iter == dsl::LoopIter::PlUnroll && loop.trip_count && *loop.trip_count > 1)
      copies = std::min<std::int64_t>(copies * *loop.trip_count, 4096);
  }
  return static_cast<int>(copies);
}

// How many times each inline function is spliced into one program: per DSL entry (a @pl.jit, an
// orchestration or opaque function), the number of call paths reaching it through inline functions,
// each call inside pl.unroll counted once per copy the unrolling makes; the largest over the
// entries. Functions reached by no entry are not in the map.
std::map<std::pair<int, int>, int> inlineInstances(const dsl::ProgramModel& model) {
  std::map<std::pair<int, int>, int> most;
  for (const dsl::FunctionRef entry : model.allFunctions()) {
    const Function* e = model.function(entry);
    if (!e || !e->isDsl() || e->isInline() || e->kind == dsl::FunctionKind::JitIncore ||
        e->kind == dsl::FunctionKind::InCore)
      continue;
    std::map<std::pair<int, int>, int> count;
    // Depth-first over call sites; `on_path` stops recursion cycles.
    std::set<std::pair<int, int>> on_path;
    std::function<void(const Function&, int, int)> visit = [&](const Function& fn, int depth, int copies) {
      if (depth > 16) return;
      for (int c : fn.calls) {
        const Expr& call = fn.exprs[static_cast<std::size_t>(c)];
        std::pair<int, int> key{call.callee_file, call.callee_function};
        const Function* callee = model.function({key.first, key.second});
        if (!callee || !callee->isInline() || on_path.count(key)) continue;
        const int here = std::min(4096, copies * unrollCopies(fn, call.stmt));
        if ((count[key] += here) > 4096) return;
        on_path.insert(key);
        visit(*callee, depth + 1, here);
        on_path.erase(key);
      }
    };
    visit(*e, 0, 1);
    for (const auto& [key, n] : count) most[key] = std::max(most[key], n);
  }
  return most;
}

// `name` with the instance suffix before a _aic / _aiv split suffix: kernel_3_aic.
std::string instanceName(const std::string& kernel, const std::string& base, int k) {
  std::string rest = kernel.substr(std::min(base.size(), kernel.size()));
  return base + "_" + std::to_string(k) + rest;
}

}  // namespace

std::vector<KernelEstimate> firstInstances(std::vector<KernelEstimate> kernels) {
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(), [](const KernelEstimate& k) { return k.repeated; }),
                kernels.end());
  return kernels;
}

std::vector<KernelEstimate> estimateProgram(const dsl::ProgramModel& model, Platform platform) {
  const std::map<std::pair<int, int>, int> instances = inlineInstances(model);
  std::unordered_map<const Function*, FunctionPoints> points;  // per function, shared by its regions
  auto pointsOf = [&](const Function& f) -> const FunctionPoints& {
    auto it = points.find(&f);
    if (it == points.end()) it = points.emplace(&f, functionPoints(f)).first;
    return it->second;
  };
  // Footprints of inline functions spliced into kernels, computed once each (a cycle counts as none).
  std::map<std::pair<int, int>, std::optional<InlineFootprint>> footprints;
  InlineFootprints inlined;
  inlined = [&](int file, int function) -> const InlineFootprint* {
    const Function* f = model.function({file, function});
    if (!f || !f->isInline() || f->regions.empty() || f->regions[0].kind != dsl::RegionKind::IncoreFunction)
      return nullptr;
    auto key = std::make_pair(file, function);
    auto it = footprints.find(key);
    if (it != footprints.end()) return it->second ? &*it->second : nullptr;
    footprints[key] = std::nullopt;  // in progress
    InlineFootprint fp;
    RegionEstimator est(model.files[static_cast<std::size_t>(file)], *f, pointsOf(*f), f->regions[0], platform,
                        inlined);
    for (const KernelEstimate& k : est.run()) {
      if (k.core == "AIC" || k.split) fp.cube = fp.cube || k.core == "AIC";
      for (const SpaceEstimate& sp : k.spaces)
        fp.spaces.push_back({dsl::memSpaceFromName(sp.space), sp.hwm - sp.reserved});
    }
    footprints[key] = std::move(fp);
    return &*footprints[key];
  };
  std::vector<KernelEstimate> out;
  for (std::size_t fi = 0; fi < model.files.size(); ++fi) {
    const dsl::FileModel& file = model.files[fi];
    for (std::size_t fn = 0; fn < file.functions.size(); ++fn) {
      const Function& f = file.functions[fn];
      // A @pl.jit / opaque function with tile code but no pl.at scope is compiled as one kernel
      // named after the function (the verifier reports it under that name).
      if (f.regions.empty() && (f.kind == dsl::FunctionKind::JitEntry || f.kind == dsl::FunctionKind::Opaque) &&
          std::any_of(f.values.begin(), f.values.end(), [](const Value& v) {
            return v.on_chip && v.type.kind == ValueKind::Tile && v.def_stmt >= 0;
          })) {
        dsl::IncoreRegion whole;
        whole.kind = dsl::RegionKind::IncoreFunction;
        whole.first = 0;
        whole.last = static_cast<int>(f.stmts.size());
        whole.kernel_name = f.name;
        RegionEstimator est(file, f, pointsOf(f), whole, platform, inlined);
        for (KernelEstimate& k : est.run()) {
          k.file_index = static_cast<int>(fi);
          k.function_index = static_cast<int>(fn);
          out.push_back(std::move(k));
        }
        continue;
      }
      for (std::size_t r = 0; r < f.regions.size(); ++r) {
        const dsl::IncoreRegion& region = f.regions[r];
        if (region.kernel_name.empty()) continue;
        RegionEstimator est(file, f, pointsOf(f), region, platform, inlined);
        std::vector<KernelEstimate> first = est.run();
        for (KernelEstimate& k : first) {
          k.file_index = static_cast<int>(fi);
          k.function_index = static_cast<int>(fn);
          k.region = static_cast<int>(r);
          out.push_back(k);
        }
        auto n = instances.find({static_cast<int>(fi), static_cast<int>(fn)});
        for (int i = 0; n != instances.end() && i + 1 < n->second && i < 4096; ++i)
          for (const KernelEstimate& k : first) {
            KernelEstimate copy = k;
            copy.kernel = instanceName(k.kernel, region.kernel_name, i);
            copy.repeated = true;
            out.push_back(std::move(copy));
          }
      }
    }
  }
  return out;
}

std::vector<SramRow> toSramRows(const std::vector<KernelEstimate>& kernels, const std::string& project,
                                std::size_t max_tiles) {
  std::vector<SramRow> rows;
  for (const KernelEstimate& k : kernels)
    for (const SpaceEstimate& s : k.spaces) {
      SramRow row;
      row.project = project;
      row.function = k.kernel;
      row.core = k.core;
      row.space = s.space;
      row.estimate = s.hwm;
      row.capacity = s.capacity;
      row.tiles = static_cast<int>(s.tiles.size());
      for (const Interval& t : s.tiles) {
        if (row.largest.size() >= max_tiles) break;
        row.largest.push_back({t.name, t.bytes, k.file, t.line});
      }
      rows.push_back(std::move(row));
    }
  return rows;
}

void mergeSramRows(std::vector<SramRow>& rows, const std::vector<SramRow>& estimates) {
  // The rows of each (project, function, space), in row order: a lint of a model tree merges thousands of
  // rows, and a search through all of them for each was quadratic. A row renamed below is filed under its
  // new name too; an index is used only while its row still carries the name it is filed under.
  std::unordered_map<std::string, std::vector<std::size_t>> index;
  auto key = [](std::string_view project, const SramRow& r) {
    std::string k(project);
    k += '\x1f';
    k += r.function;
    k += '\x1f';
    k += r.space;
    return k;
  };
  auto file = [&](std::size_t i) {
    std::vector<std::size_t>& at = index[key(rows[i].project, rows[i])];
    at.insert(std::upper_bound(at.begin(), at.end(), i), i);
  };
  for (std::size_t i = 0; i < rows.size(); ++i) file(i);
  // The first row of `project` describing e's function and space that `also` accepts, or rows.end().
  auto first = [&](std::string_view project, const SramRow& e, auto also) {
    auto found = index.find(key(project, e));
    if (found != index.end())
      for (std::size_t i : found->second) {
        const SramRow& r = rows[i];
        if (r.project == project && r.function == e.function && r.space == e.space && also(r))
          return rows.begin() + static_cast<std::ptrdiff_t>(i);
      }
    return rows.end();
  };
  for (const SramRow& e : estimates) {
    auto it = first(e.project, e, [](const SramRow&) { return true; });
    // A file compiling several programs names its rows <file>:<program>; the estimate row of that
    // kernel (<file>, not yet joined to a program) takes the program's name.
    if (it == rows.end() && e.project.find(':') != std::string::npos) {
      const std::string file_name = e.project.substr(0, e.project.find(':'));
      it = first(file_name, e, [](const SramRow& r) { return !r.actual; });
      if (it != rows.end()) {
        it->project = e.project;
        file(static_cast<std::size_t>(it - rows.begin()));
      }
    }
    if (it == rows.end()) {
      rows.push_back(e);
      file(rows.size() - 1);
      continue;
    }
    if (e.estimate) it->estimate = e.estimate;
    if (e.actual) {
      // The compiler's own figures win for what both describe.
      it->actual = e.actual;
      it->actual_source = e.actual_source;
      if (!e.core.empty()) it->core = e.core;
      if (!e.largest.empty()) it->largest = e.largest;
      if (e.capacity) it->capacity = e.capacity;
      it->tiles = e.tiles;
    }
    if (it->largest.empty()) it->largest = e.largest;
    if (it->capacity == 0) it->capacity = e.capacity;
    if (it->core.empty()) it->core = e.core;
  }
}

}  // namespace portcheck::sram
