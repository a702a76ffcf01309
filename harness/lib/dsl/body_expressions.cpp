// Expressions: every node of an expression becomes an Expr (names bound to their values, constants
// folded, forms the pypto parser rejects marked unsupported).
#include "dsl/function_body_internal.h"

#include <cctype>

#include "dsl/const_eval.h"

namespace portcheck::dsl::detail {

namespace {

std::string unquote(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;  // r/b/u prefixes
  s.remove_prefix(i);
  for (std::string_view q : {"\"\"\"", "'''", "\"", "'"}) {
    if (s.size() >= 2 * q.size() && s.substr(0, q.size()) == q && s.substr(s.size() - q.size()) == q)
      return std::string(s.substr(q.size(), s.size() - 2 * q.size()));
  }
  return std::string(s);
}

// Python AST names of expressions the pypto parser rejects (parse_expression's else branch).
std::string_view unsupportedExprKind(std::string_view t) {
  if (t == "list_comprehension") return "ListComp";
  if (t == "dictionary_comprehension") return "DictComp";
  if (t == "set_comprehension") return "SetComp";
  if (t == "generator_expression") return "GeneratorExp";
  if (t == "lambda") return "Lambda";
  if (t == "conditional_expression") return "IfExp";
  if (t == "dictionary") return "Dict";
  if (t == "set") return "Set";
  if (t == "named_expression") return "NamedExpr";
  if (t == "await") return "Await";
  if (t == "yield") return "Yield";
  if (t == "list_splat" || t == "dictionary_splat") return "Starred";
  return {};
}

}  // namespace

int BodyBuilder::addExpr(ExprKind kind, TSNode n, int stmt) {
  Expr e;
  e.kind = kind;
  e.loc = loc(n);
  e.begin = ts_node_start_byte(n);
  e.end = ts_node_end_byte(n);
  e.stmt = stmt;
  fn_.exprs.push_back(std::move(e));
  return static_cast<int>(fn_.exprs.size()) - 1;
}

std::string BodyBuilder::dotted(int e) const {
  const Expr& x = fn_.exprs[static_cast<std::size_t>(e)];
  if (x.kind == ExprKind::Name) return x.name;
  if (x.kind == ExprKind::Attribute && !x.children.empty()) {
    std::string base = dotted(x.children[0]);
    return base.empty() ? std::string() : base + "." + x.name;
  }
  return {};
}

// Temporary results consumed by an enclosing expression count as used at that statement.
void BodyBuilder::useChild(int child, int stmt) {
  if (child < 0) return;
  const Expr& c = fn_.exprs[static_cast<std::size_t>(child)];
  if (c.value >= 0 && c.kind != ExprKind::Name) use(c.value, stmt);
}

int BodyBuilder::unsupported(TSNode n, int stmt, std::string_view kind) {
  int id = addExpr(ExprKind::Unsupported, n, stmt);
  X(id).name = std::string(kind);
  fn_.unsupported_exprs.push_back(id);
  return id;
}

int BodyBuilder::expr(TSNode n, int stmt, int depth) {
  if (isNull(n)) return -1;
  if (depth > kMaxNesting) {
    fm_.truncated = true;
    return unsupported(n, stmt, "TooDeep");
  }
  std::string_view t = nodeType(n);
  if (t == "parenthesized_expression") {
    for (TSNode c : namedChildren(n)) {
      if (!isComment(c)) return expr(c, stmt, depth + 1);
    }
    return addExpr(ExprKind::Other, n, stmt);
  }
  if (t == "identifier") return nameExpr(n, stmt);  // the most common kinds first: none is unsupported
  if (std::string_view k = unsupportedExprKind(t); !k.empty()) return unsupported(n, stmt, k);
  if (t == "attribute") {
    int obj = expr(childByField(n, "object"), stmt, depth + 1);
    int id = addExpr(ExprKind::Attribute, n, stmt);
    X(id).name = std::string(text(childByField(n, "attribute")));
    if (obj >= 0) X(id).children.push_back(obj);
    std::string d = dotted(id);
    if (!d.empty()) X(id).pl_name = relativeToPl(fm_, d);
    return id;
  }
  if (t == "call") return callExpr(n, stmt, depth);
  if (t == "integer" || t == "float") {
    int id = addExpr(t == "integer" ? ExprKind::Int : ExprKind::Float, n, stmt);
    X(id).number = parseNumberLiteral(text(n));
    return id;
  }
  if (t == "string" || t == "concatenated_string") {
    bool interpolated = false;
    std::vector<TSNode> stack{n};
    while (!stack.empty()) {
      TSNode c = stack.back();
      stack.pop_back();
      if (nodeType(c) == "interpolation") interpolated = true;
      if (nodeType(c) == "concatenated_string")
        for (TSNode child : namedChildren(c)) stack.push_back(child);
      else if (nodeType(c) == "string")
        for (uint32_t i = 0; i < ts_node_named_child_count(c); ++i)
          if (nodeType(ts_node_named_child(c, i)) == "interpolation") interpolated = true;
    }
    if (interpolated) return unsupported(n, stmt, "JoinedStr");
    int id = addExpr(ExprKind::String, n, stmt);
    X(id).name = unquote(text(n));
    return id;
  }
  if (t == "true" || t == "false") {
    int id = addExpr(ExprKind::Bool, n, stmt);
    X(id).number = Number::ofInt(t == "true" ? 1 : 0);
    return id;
  }
  if (t == "none") return addExpr(ExprKind::None, n, stmt);
  if (t == "list" || t == "tuple" || t == "expression_list" || t == "pattern_list" || t == "tuple_pattern" ||
      t == "list_pattern") {
    std::vector<int> kids;
    for (TSNode c : namedChildren(n)) {
      if (!isComment(c)) kids.push_back(expr(c, stmt, depth + 1));
    }
    int id = addExpr(t == "list" || t == "list_pattern" ? ExprKind::List : ExprKind::Tuple, n, stmt);
    for (int k : kids)
      if (k >= 0) {
        X(id).children.push_back(k);
        useChild(k, stmt);
      }
    return id;
  }
  if (t == "subscript") return subscriptExpr(n, stmt, depth);
  if (t == "generic_type") {
    // `tuple[pl.Tensor[...], ...]` in an annotation (tree-sitter's generic type): a subscript of the name,
    // its children the name and each type argument, as a written subscript's are.
    std::vector<int> kids;
    for (TSNode c : namedChildren(n)) {
      if (nodeType(c) == "type_parameter") {
        for (TSNode a : namedChildren(c))
          if (!isComment(a)) kids.push_back(expr(unwrapType(a), stmt, depth + 1));
      } else if (!isComment(c)) {
        kids.push_back(expr(c, stmt, depth + 1));
      }
    }
    int id = addExpr(ExprKind::Subscript, n, stmt);
    for (int k : kids)
      if (k >= 0) X(id).children.push_back(k);
    return id;
  }
  if (t == "slice") return sliceExpr(n, stmt, depth);
  if (t == "binary_operator") {
    int l = expr(childByField(n, "left"), stmt, depth + 1);
    int r = expr(childByField(n, "right"), stmt, depth + 1);
    int id = addExpr(ExprKind::BinOp, n, stmt);
    X(id).name = std::string(text(childByField(n, "operator")));
    for (int c : {l, r})
      if (c >= 0) {
        X(id).children.push_back(c);
        useChild(c, stmt);
      }
    if (l >= 0 && r >= 0) X(id).number = applyBinary(X(id).name, X(l).number, X(r).number);
    // Arithmetic on a tensor / tile operand yields one of the same kind.
    const TypeInfo* lt = typeOf(l);
    const TypeInfo* rt = typeOf(r);
    const TypeInfo* data = (lt && (lt->kind == ValueKind::Tensor || lt->kind == ValueKind::Tile)) ? lt
                           : (rt && (rt->kind == ValueKind::Tensor || rt->kind == ValueKind::Tile)) ? rt
                                                                                                     : nullptr;
    if (data) {
      TypeInfo ti = *data;
      if (ti.kind == ValueKind::Tile) ti.space = MemSpace::Vec;
      X(id).value = newResult(ti, stmt, id);
    } else if ((lt && lt->kind == ValueKind::Scalar) || (rt && rt->kind == ValueKind::Scalar)) {
      TypeInfo ti;
      ti.kind = ValueKind::Scalar;
      X(id).value = newResult(ti, stmt, id);
    }
    return id;
  }
  if (t == "unary_operator") {
    int a = expr(childByField(n, "argument"), stmt, depth + 1);
    int id = addExpr(ExprKind::UnaryOp, n, stmt);
    X(id).name = std::string(text(childByField(n, "operator")));
    if (a >= 0) {
      X(id).children.push_back(a);
      useChild(a, stmt);
      X(id).number = applyUnary(X(id).name, X(a).number);
      const TypeInfo* at = typeOf(a);
      if (at && (at->kind == ValueKind::Tensor || at->kind == ValueKind::Tile)) X(id).value = newResult(*at, stmt, id);
    }
    return id;
  }
  if (t == "comparison_operator" || t == "boolean_operator" || t == "not_operator") {
    std::vector<int> kids;
    for (TSNode c : namedChildren(n)) {
      if (!isComment(c)) kids.push_back(expr(c, stmt, depth + 1));
    }
    int id = addExpr(t == "comparison_operator" ? ExprKind::Compare
                     : t == "boolean_operator"  ? ExprKind::BoolOp
                                                : ExprKind::UnaryOp,
                     n, stmt);
    if (t == "boolean_operator") X(id).name = std::string(text(childByField(n, "operator")));
    else if (t == "not_operator") X(id).name = "not";
    else {
      // the first operator token between the operands
      for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
        TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c)) {
          X(id).name = std::string(text(c));
          break;
        }
      }
    }
    for (int k : kids)
      if (k >= 0) {
        X(id).children.push_back(k);
        useChild(k, stmt);
      }
    foldComparison(X(id));
    return id;
  }
  if (t == "keyword_argument") {
    int v = expr(childByField(n, "value"), stmt, depth + 1);
    int id = addExpr(ExprKind::Keyword, n, stmt);
    X(id).name = std::string(text(childByField(n, "name")));
    if (v >= 0) X(id).children.push_back(v);
    return id;
  }
  if (t == "ERROR") return addExpr(ExprKind::Error, n, stmt);
  return addExpr(ExprKind::Other, n, stmt);
}

int BodyBuilder::nameExpr(TSNode n, int stmt) {
  int id = addExpr(ExprKind::Name, n, stmt);
  std::string name(text(n));
  auto it = env_.find(name);
  if (it != env_.end()) {
    X(id).value = it->second;
    use(it->second, stmt);
    X(id).number = fn_.values[static_cast<std::size_t>(it->second)].number;
  } else {
    ConstValue c = lookupConstant(unit_, file_, name);
    X(id).number = c.number;
    auto pl = fm_.pl_names.find(name);
    if (pl != fm_.pl_names.end()) X(id).pl_name = pl->second;
  }
  X(id).name = std::move(name);
  return id;
}

// A tuple constant referenced by name expands to its elements (for shapes like [*SHAPE]).
Shape BodyBuilder::shapeArg(int e) const {
  if (e < 0) return {};
  const Expr& x = fn_.exprs[static_cast<std::size_t>(e)];
  if (x.kind == ExprKind::Name && x.value < 0) {
    ConstValue c = lookupConstant(unit_, file_, x.name);
    if (c.is_tuple) {
      Shape s;
      s.rank_known = true;
      for (const Number& n : c.tuple) s.dims.push_back(n.isInt() ? Dim(n.i) : std::nullopt);
      return s;
    }
  }
  return shapeFromList(e, nullptr);
}

}  // namespace portcheck::dsl::detail
