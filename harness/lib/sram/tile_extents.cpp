// How far each tile could grow, for the FUSE advice: loads and views up to their GM tensor, stores and
// assembles up to their destination, then along same-shaped operands and through a matmul's M and N.
#include "sram/sram_estimator_internal.h"

#include <algorithm>

namespace portcheck::sram::detail {

// The static shape of the GM tensor a (GM) value views, following slices / subscripts / views to
// the tensor they were taken from; empty when unknown.
std::vector<std::int64_t> RegionEstimator::gmExtent(int v) const {
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

void RegionEstimator::clampExtent(std::vector<std::int64_t>& into, const std::vector<std::int64_t>& by) {
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
void RegionEstimator::propagateExtents() {
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

}  // namespace portcheck::sram::detail
