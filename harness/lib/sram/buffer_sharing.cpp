// Buffer sharing, as MemoryReuse decides it: views, in-place ops and loop-carried rebindings are the
// buffer of the value they come from (one root per buffer); the output of a not_inplace_safe op or of a
// widening cast never takes an input's buffer.
#include "sram/sram_estimator_internal.h"

#include <algorithm>

namespace portcheck::sram::detail {

namespace {

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

}  // namespace

int RegionEstimator::root(int v) const {
  for (int guard = 0; guard < 64 && alias_[static_cast<std::size_t>(v)] != v; ++guard)
    v = alias_[static_cast<std::size_t>(v)];
  return v;
}

void RegionEstimator::resolveAliases() {
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
int RegionEstimator::carriedInit(int i) const {
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
int RegionEstimator::boundBefore(const std::string& name, int loop_stmt) const {
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

// Keeps `a` out of `b`'s buffer, and likewise their copies in every pipeline stage.
void RegionEstimator::forbidSharing(int a, int b) {
  auto it = stage_copies_.find(a);
  const int stages = 1 + (it == stage_copies_.end() ? 0 : static_cast<int>(it->second.size()));
  for (int st = 0; st < stages; ++st) tiles_[static_cast<std::size_t>(inStage(a, st))].iv.no_share.push_back(inStage(b, st));
}

// MemoryReuse keeps the output of a not_inplace_safe op, and of a widening pl.cast (the write
// cursor would outrun the read cursor), out of its inputs' buffers.
void RegionEstimator::forbidInplace(int c) {
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

}  // namespace portcheck::sram::detail
