// Subscripts and slices: the shape of the view `t[a:b, c]` takes, extents of symbolic bounds
// (`x[i:i + 64]`) by linear forms, and comparisons folded where both sides are known.
#include "dsl/function_body_internal.h"

#include <map>
#include <optional>

#include "dsl/const_eval.h"

namespace portcheck::dsl::detail {

// x[a:b, c:d] on a tensor or tile: a view / implicit load of the sliced region.
int BodyBuilder::subscriptExpr(TSNode n, int stmt, int depth) {
  const TSNode value = childByField(n, "value");
  int base = expr(value, stmt, depth + 1);
  std::vector<int> idx;
  for (TSNode c : namedChildren(n)) {
    if (isComment(c) || ts_node_eq(c, value)) continue;
    int e = expr(c, stmt, depth + 1);
    if (e >= 0) idx.push_back(e);
  }
  int id = addExpr(ExprKind::Subscript, n, stmt);
  if (base >= 0) X(id).children.push_back(base);
  for (int e : idx) {
    X(id).children.push_back(e);
    useChild(e, stmt);
  }
  const TypeInfo* bt = typeOf(base);
  if (bt && (bt->kind == ValueKind::Tensor || bt->kind == ValueKind::Tile)) {
    TypeInfo t = *bt;
    t.shape = sliceShape(*bt, idx);
    int v = newResult(t, stmt, id);
    X(id).value = v;
    if (t.kind == ValueKind::Tensor && incore()) {
      Value& val = fn_.values[static_cast<std::size_t>(v)];
      val.on_chip = true;
      val.type.space = MemSpace::Vec;
    }
    fn_.subscripts.push_back({stmt, id, X(base).value, false});
  } else if (base >= 0 && X(base).kind == ExprKind::Name && idx.size() == 1 && X(idx[0]).number.isInt()) {
    ConstValue c = lookupConstant(unit_, file_, X(base).name);
    std::int64_t k = X(idx[0]).number.i;
    if (c.is_tuple && k >= 0 && k < static_cast<std::int64_t>(c.tuple.size()))
      X(id).number = c.tuple[static_cast<std::size_t>(k)];
  }
  return id;
}

Shape BodyBuilder::sliceShape(const TypeInfo& base, const std::vector<int>& idx) const {
  if (!base.shape.rank_known) return {};
  Shape s;
  s.rank_known = true;
  for (std::size_t d = 0; d < base.shape.dims.size(); ++d) {
    if (d >= idx.size()) {
      s.dims.push_back(base.shape.dims[d]);
      continue;
    }
    const Expr& x = fn_.exprs[static_cast<std::size_t>(idx[d])];
    if (x.kind != ExprKind::Slice || x.args.size() != 3) return {};  // integer index: rank changes
    int start = x.args[0], stop = x.args[1], step = x.args[2];
    if (step >= 0 && !(fn_.exprs[static_cast<std::size_t>(step)].number.isInt() &&
                       fn_.exprs[static_cast<std::size_t>(step)].number.i == 1)) {
      s.dims.push_back(std::nullopt);
      continue;
    }
    Number lo = start < 0 ? Number::ofInt(0) : fn_.exprs[static_cast<std::size_t>(start)].number;
    Number hi = stop < 0 ? (base.shape.dims[d] ? Number::ofInt(*base.shape.dims[d]) : Number{})
                         : fn_.exprs[static_cast<std::size_t>(stop)].number;
    Number ext = applyBinary("-", hi, lo);
    if (!ext.isInt() && start >= 0 && stop >= 0) ext = symbolicExtent(start, stop);
    s.dims.push_back(ext.isInt() ? Dim(ext.i) : std::nullopt);
  }
  return s;
}

// `a == b` (and the other orderings) of two compile-time numbers, `not a`: the truth value as 1 / 0,
// so an `if` on a module constant is known to take or skip its branch.
void BodyBuilder::foldComparison(Expr& e) const {
  auto num = [&](int k) { return fn_.exprs[static_cast<std::size_t>(k)].number; };
  if (e.kind == ExprKind::UnaryOp && e.name == "not" && e.children.size() == 1 && num(e.children[0]).known()) {
    e.number = Number::ofInt(num(e.children[0]).asDouble() == 0 ? 1 : 0);
    return;
  }
  if (e.kind != ExprKind::Compare || e.children.size() != 2) return;
  if (std::optional<bool> holds = compareNumbers(e.name, num(e.children[0]), num(e.children[1])))
    e.number = Number::ofInt(*holds ? 1 : 0);
}

// stop - start of a slice whose bounds are not numbers but differ by one: both taken as linear
// forms over the same unknowns (`k0 : k0 + C`, `qb + s * H : qb + (s + 1) * H` -> H).
Number BodyBuilder::symbolicExtent(int start, int stop) const {
  std::map<std::string, std::int64_t> form;
  if (!linearForm(stop, 1, form, 0) || !linearForm(start, -1, form, 0)) return {};
  for (const auto& [atom, k] : form)
    if (!atom.empty() && k != 0) return {};
  return Number::ofInt(form[""]);
}

// Adds scale * e to `form` (atom text -> coefficient, "" the constant); false on overflow or depth.
bool BodyBuilder::linearForm(int e, std::int64_t scale, std::map<std::string, std::int64_t>& form, int depth) const {
  if (e < 0 || depth > 32) return false;
  const Expr& x = fn_.exprs[static_cast<std::size_t>(e)];
  auto add = [&](const std::string& atom, std::int64_t k) {
    std::int64_t term = 0;
    return !__builtin_mul_overflow(scale, k, &term) && !__builtin_add_overflow(form[atom], term, &form[atom]);
  };
  if (x.number.isInt()) return add("", x.number.i);
  if (x.kind == ExprKind::BinOp && x.children.size() == 2 && (x.name == "+" || x.name == "-"))
    return linearForm(x.children[0], scale, form, depth + 1) &&
           linearForm(x.children[1], x.name == "-" ? -scale : scale, form, depth + 1);
  if (x.kind == ExprKind::BinOp && x.children.size() == 2 && x.name == "*") {
    for (int side = 0; side < 2; ++side) {
      const Number& k = fn_.exprs[static_cast<std::size_t>(x.children[static_cast<std::size_t>(side)])].number;
      std::int64_t scaled = 0;
      if (k.isInt() && !__builtin_mul_overflow(scale, k.i, &scaled))
        return linearForm(x.children[static_cast<std::size_t>(1 - side)], scaled, form, depth + 1);
    }
  }
  if (x.kind == ExprKind::UnaryOp && x.name == "-" && x.children.size() == 1)
    return linearForm(x.children[0], -scale, form, depth + 1);
  std::string atom;
  for (char c : fm_.text(x))
    if (c != ' ' && c != '\n' && c != '\t') atom += c;
  return add(atom, 1);
}

int BodyBuilder::sliceExpr(TSNode n, int stmt, int depth) {
  int parts[3] = {-1, -1, -1};
  int which = 0;
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c)) {
      if (text(c) == ":") ++which;
      continue;
    }
    if (isComment(c) || which > 2) continue;
    parts[which] = expr(c, stmt, depth + 1);
  }
  int id = addExpr(ExprKind::Slice, n, stmt);
  X(id).args.assign(parts, parts + 3);
  for (int p : parts)
    if (p >= 0) {
      X(id).children.push_back(p);
      useChild(p, stmt);
    }
  return id;
}

}  // namespace portcheck::dsl::detail
