// Preprocessor guards: the three-valued truth of #if / #ifdef / #ifndef conditions in each build (AUTO,
// vector core, cube core), and the reach of every branch of a chain (its condition true and every
// earlier one false).
#include "kernel/kernel_model_internal.h"

#include "kernel/kernel_source.h"

namespace portcheck::kernel::detail {

namespace {

Tri triNot(Tri a) { return a == Tri::Unknown ? a : (a == Tri::True ? Tri::False : Tri::True); }
Tri triAnd(Tri a, Tri b) {
  if (a == Tri::False || b == Tri::False) return Tri::False;
  return a == Tri::True && b == Tri::True ? Tri::True : Tri::Unknown;
}
Tri triOr(Tri a, Tri b) {
  if (a == Tri::True || b == Tri::True) return Tri::True;
  return a == Tri::False && b == Tri::False ? Tri::False : Tri::Unknown;
}

bool isVecMacro(std::string_view m) { return m == "__DAV_VEC__" || m == "__DAV_C220_VEC__" || m == "__DAV_C310_VEC__"; }
bool isCubeMacro(std::string_view m) {
  return m == "__DAV_CUBE__" || m == "__DAV_C220_CUBE__" || m == "__DAV_C310_CUBE__";
}

Tri macroDefined(Build b, std::string_view m) {
  switch (b) {
    case Build::Auto: return m == "__PTO_AUTO__" ? Tri::True : Tri::Unknown;
    case Build::Vec: return isVecMacro(m) ? Tri::True : isCubeMacro(m) ? Tri::False : Tri::Unknown;
    case Build::Cube: return isCubeMacro(m) ? Tri::True : isVecMacro(m) ? Tri::False : Tri::Unknown;
  }
  return Tri::Unknown;
}

std::string_view text(const SyntaxTree& t, TSNode n) { return t.nodeText(n); }

Tri evalCondition(const SyntaxTree& t, TSNode n, Build b) {
  if (isNull(n)) return Tri::Unknown;
  std::string_view type = nodeType(n);
  if (type == "preproc_defined") {
    for (TSNode c : namedChildren(n)) {
      if (nodeType(c) == "identifier") return macroDefined(b, text(t, c));
    }
    return Tri::Unknown;
  }
  if (type == "identifier") {
    // `#if MACRO`: an undefined macro is 0; a defined one is usually 1.
    Tri d = macroDefined(b, text(t, n));
    return d;
  }
  if (type == "number_literal") return text(t, n) == "0" ? Tri::False : Tri::True;
  if (type == "parenthesized_expression") return evalCondition(t, ts_node_named_child(n, 0), b);
  if (type == "unary_expression") {
    TSNode op = childByField(n, "operator");
    if (!isNull(op) && text(t, op) == "!") return triNot(evalCondition(t, childByField(n, "argument"), b));
    return Tri::Unknown;
  }
  if (type == "binary_expression") {
    std::string_view op = text(t, childByField(n, "operator"));
    Tri l = evalCondition(t, childByField(n, "left"), b), r = evalCondition(t, childByField(n, "right"), b);
    if (op == "&&") return triAnd(l, r);
    if (op == "||") return triOr(l, r);
    return Tri::Unknown;
  }
  return Tri::Unknown;
}

}  // namespace

Tri Builder::branchTruth(const Branch& br, Build b) const {
  if (br.ifdef) return macroDefined(b, txt(br.node));
  if (br.ifndef) return triNot(macroDefined(b, txt(br.node)));
  return evalCondition(tree_, br.node, b);
}

// Reach of a branch: the parent's, this condition true (when given) and every earlier one false.
Reach Builder::branchReach(const Reach& parent, const Branch* self, const std::vector<Branch>& earlier) const {
  Reach r = parent;
  for (Build b : {Build::Auto, Build::Vec, Build::Cube}) {
    Tri v = self ? branchTruth(*self, b) : Tri::True;
    for (const Branch& e : earlier) v = triAnd(v, triNot(branchTruth(e, b)));
    Tri& slot = b == Build::Auto ? r.in_auto : b == Build::Vec ? r.on_vec : r.on_cube;
    slot = triAnd(slot, v);
  }
  return r;
}

void Builder::noteMacros(std::string_view condition_text) {
  if (containsWord(condition_text, "__PTO_AUTO__")) model_.mentions_pto_auto = true;
  for (std::string_view m : {"__DAV_VEC__", "__DAV_C220_VEC__", "__DAV_C310_VEC__"})
    if (containsWord(condition_text, m)) model_.mentions_vec_macro = true;
  for (std::string_view m : {"__DAV_CUBE__", "__DAV_C220_CUBE__", "__DAV_C310_CUBE__"})
    if (containsWord(condition_text, m)) model_.mentions_cube_macro = true;
}

// #if / #ifdef / #ifndef with their #elif / #else chains.
void Builder::visitConditional(TSNode n, const Context& ctx) {
  std::vector<Branch> earlier;
  for (TSNode cur = n; !isNull(cur);) {
    std::string_view type = nodeType(cur);
    TSNode alternative = childByField(cur, "alternative");
    if (type == "preproc_else") {
      Context inner = ctx;
      inner.reach = branchReach(ctx.reach, nullptr, earlier);
      for (TSNode child : namedChildren(cur)) visit(child, inner);
      return;
    }
    Branch br;
    if (type == "preproc_ifdef" || type == "preproc_elifdef") {
      br.node = childByField(cur, "name");
      bool negate = txt(ts_node_child(cur, 0)).find("ndef") != std::string_view::npos;
      br.ifdef = !negate;
      br.ifndef = negate;
    } else {
      br.node = childByField(cur, "condition");
    }
    if (!isNull(br.node)) noteMacros(txt(br.node));
    Context inner = ctx;
    inner.reach = branchReach(ctx.reach, isNull(br.node) ? nullptr : &br, earlier);
    for (TSNode c : namedChildren(cur)) {
      if (ts_node_eq(c, br.node) || (!isNull(alternative) && ts_node_eq(c, alternative))) continue;
      visit(c, inner);
    }
    if (!isNull(br.node)) earlier.push_back(br);
    cur = alternative;
  }
}

}  // namespace portcheck::kernel::detail
