// Statements: each becomes a Stmt in its block, assignments bind their targets (names, tuples,
// subscripts written in place), and statements the pypto parser rejects are marked unsupported.
#include "dsl/function_body_internal.h"

#include <algorithm>

namespace portcheck::dsl::detail {

namespace {

// Python AST names of statements the pypto parser rejects (parse_statement's else branch).
std::string_view unsupportedStmtKind(std::string_view t) {
  if (t == "augmented_assignment") return "AugAssign";
  if (t == "try_statement") return "Try";
  if (t == "raise_statement") return "Raise";
  if (t == "assert_statement") return "Assert";
  if (t == "delete_statement") return "Delete";
  if (t == "global_statement") return "Global";
  if (t == "nonlocal_statement") return "Nonlocal";
  if (t == "import_statement") return "Import";
  if (t == "import_from_statement" || t == "future_import_statement") return "ImportFrom";
  if (t == "function_definition" || t == "decorated_definition") return "FunctionDef";
  if (t == "class_definition") return "ClassDef";
  if (t == "match_statement") return "Match";
  if (t == "type_alias_statement") return "TypeAlias";
  if (t == "print_statement" || t == "exec_statement") return "Expr";
  return {};
}

}  // namespace

int BodyBuilder::addStmt(StmtKind kind, TSNode n, int parent, int depth) {
  Stmt s;
  s.kind = kind;
  s.loc = loc(n);
  s.begin = ts_node_start_byte(n);
  s.end = ts_node_end_byte(n);
  s.parent = parent;
  s.depth = depth;
  s.enclosing_loop = loops_.empty() ? -1 : loops_.back();
  s.incore = incore();
  s.region = region_;
  fn_.stmts.push_back(std::move(s));
  return static_cast<int>(fn_.stmts.size()) - 1;
}

void BodyBuilder::buildBlock(TSNode block, int parent, int depth) {
  if (isNull(block)) return;
  for (TSNode child : namedChildren(block)) buildStmt(child, parent, depth);
}

void BodyBuilder::buildStmt(TSNode n, int parent, int depth) {
  std::string_view t = nodeType(n);
  if (t == "comment") return;
  if (depth > kMaxNesting) {
    fm_.truncated = true;
    int s = addStmt(StmtKind::Unsupported, n, parent, depth);
    S(s).unsupported = "TooDeep";
    close(s);
    return;
  }
  if (t == "ERROR") {  // keep what parses inside half-written code
    for (TSNode c : namedChildren(n)) {
      std::string_view ct = nodeType(c);
      if (ct == "call") {
        int s = addStmt(StmtKind::Expr, c, parent, depth);
        S(s).value = expr(c, s, 0);
        close(s);
      } else if (ct.find("statement") != std::string_view::npos || ct == "ERROR") {
        buildStmt(c, parent, depth + 1);
      }
    }
    return;
  }
  if (t == "expression_statement") {
    TSNode e = ts_node_named_child(n, 0);
    if (isNull(e)) return;
    std::string_view et = nodeType(e);
    if (et == "assignment") return assignment(n, e, parent, depth);
    if (et == "augmented_assignment") return augAssignment(n, e, parent, depth);
    int s = addStmt(StmtKind::Expr, n, parent, depth);
    S(s).value = expr(e, s, 0);
    close(s);
    return;
  }
  if (t == "return_statement") {
    int s = addStmt(StmtKind::Return, n, parent, depth);
    TSNode v = ts_node_named_child(n, 0);
    if (!isNull(v) && !isComment(v)) {
      S(s).value = expr(v, s, 0);
      useChild(S(s).value, s);
    }
    close(s);
    return;
  }
  if (t == "pass_statement" || t == "break_statement" || t == "continue_statement") {
    int s = addStmt(t == "pass_statement" ? StmtKind::Pass : t == "break_statement" ? StmtKind::Break : StmtKind::Continue,
                    n, parent, depth);
    close(s);
    return;
  }
  if (t == "if_statement") return ifStatement(n, parent, depth);
  if (t == "for_statement") return forStatement(n, parent, depth);
  if (t == "while_statement") return whileStatement(n, parent, depth);
  if (t == "with_statement") return withStatement(n, parent, depth);
  int s = addStmt(StmtKind::Unsupported, n, parent, depth);
  std::string_view k = unsupportedStmtKind(t);
  S(s).unsupported = k.empty() ? std::string(t) : std::string(k);
  close(s);
}

// The type of the tensor a call of a DSL function passes for the callee's `k`-th Out / InOut
// parameter (what the k-th element of the returned tuple is), or nullptr.
const TypeInfo* BodyBuilder::outArgumentType(const Expr& call, std::size_t k) {
  if (call.callee_file < 0 || call.callee_function < 0) return nullptr;
  const Function& callee = unit_.files[static_cast<std::size_t>(call.callee_file)]
                               .functions[static_cast<std::size_t>(call.callee_function)];
  if (!callee.isDsl()) return nullptr;
  std::size_t pos = 0, outs = 0;
  for (const Param& p : callee.params) {
    if (p.is_self) continue;
    if (p.direction != Direction::In && outs++ == k) {
      const TypeInfo* t = typeOf(fn_.arg(call, pos, p.name));
      return t && t->kind == ValueKind::Tensor ? t : nullptr;
    }
    ++pos;
  }
  return nullptr;
}

namespace {

// Element `i` of a `-> tuple[pl.Tensor[[d0, d1], pl.DT], ...]` return annotation of `callee`, read from
// its own expressions (numbers folded, the dtype by name); nullopt for any other annotation.
std::optional<TypeInfo> tupleReturnElement(const Function& callee, std::size_t i) {
  auto at = [&](int e) -> const Expr& { return callee.exprs[static_cast<std::size_t>(e)]; };
  if (callee.return_annotation < 0) return std::nullopt;
  const Expr& r = at(callee.return_annotation);
  if (r.kind != ExprKind::Subscript || r.children.size() < 2 || at(r.children[0]).kind != ExprKind::Name ||
      (at(r.children[0]).name != "tuple" && at(r.children[0]).name != "Tuple"))
    return std::nullopt;
  std::vector<int> elements(r.children.begin() + 1, r.children.end());
  if (elements.size() == 1 && at(elements[0]).kind == ExprKind::Tuple) elements = at(elements[0]).children;
  if (i >= elements.size()) return std::nullopt;
  const Expr& t = at(elements[i]);
  if (t.kind != ExprKind::Subscript || t.children.size() < 3 || at(t.children[0]).pl_name != "Tensor") return std::nullopt;
  TypeInfo ti;
  ti.kind = ValueKind::Tensor;
  ti.space = MemSpace::DDR;
  const Expr& dims = at(t.children[1]);
  if (dims.kind == ExprKind::List || dims.kind == ExprKind::Tuple) {
    ti.shape.rank_known = true;
    for (int d : dims.children) ti.shape.dims.push_back(at(d).number.isInt() ? Dim(at(d).number.i) : std::nullopt);
  }
  std::string_view dt = at(t.children[2]).pl_name;
  if (dt.rfind("DataType.", 0) == 0) dt.remove_prefix(9);
  ti.dtype = dtypeFromName(dt);
  return ti;
}

}  // namespace

// Binds assignment targets to the value of `value_expr`; records subscript writes.
void BodyBuilder::bindTargets(int target, int value_expr, int stmt) {
  bindTarget(target, value_expr >= 0 ? X(value_expr).value : -1, value_expr, stmt);
}

// Binds one target to value `v` (-1: unknown) produced by expression `src` (-1: none).
void BodyBuilder::bindTarget(int target, int v, int src, int stmt) {
  if (target < 0) return;
  Expr& tx = X(target);
  if (tx.kind == ExprKind::Name) {
    // The target was built as a read; undo that use and bind instead.
    if (tx.value >= 0) {
      auto& uses = fn_.values[static_cast<std::size_t>(tx.value)].uses;
      if (!uses.empty() && uses.back() == stmt) uses.pop_back();
    }
    if (v >= 0 && fn_.values[static_cast<std::size_t>(v)].name.empty() &&
        fn_.values[static_cast<std::size_t>(v)].def_stmt == stmt) {
      fn_.values[static_cast<std::size_t>(v)].name = tx.name;  // the named result of this statement
    } else {
      TypeInfo ti = v >= 0 ? fn_.values[static_cast<std::size_t>(v)].type : TypeInfo{};
      bool on_chip = v >= 0 && fn_.values[static_cast<std::size_t>(v)].on_chip;
      v = newValue(tx.name, ti, stmt, src);
      fn_.values[static_cast<std::size_t>(v)].on_chip = on_chip;
    }
    if (src >= 0 && assign_count_[tx.name] == 1 && X(src).number.known())
      fn_.values[static_cast<std::size_t>(v)].number = X(src).number;
    tx.value = v;
    bind(tx.name, v, stmt);
    return;
  }
  if (tx.kind == ExprKind::Tuple || tx.kind == ExprKind::List) {
    const Expr* vx = src >= 0 ? &X(src) : nullptr;
    std::vector<int> kids = tx.children;
    bool elementwise = vx && (vx->kind == ExprKind::Tuple || vx->kind == ExprKind::List) &&
                       vx->children.size() == kids.size();
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (elementwise) {
        int e = X(src).children[i];
        bindTarget(kids[i], X(e).value, e, stmt);
      } else if (vx && vx->kind == ExprKind::Call && vx->pl_name == "yield_" && i < vx->args.size()) {
        int e = X(src).args[i];
        bindTarget(kids[i], X(e).value, e, stmt);
      } else if (vx && vx->kind == ExprKind::Call && vx->value >= 0) {
        // a, b = kernel(x, a, b): the i-th element is the tensor passed for the kernel's i-th Out /
        // InOut parameter; otherwise it takes the call's tensor-ness, nothing more.
        TypeInfo ti;
        const Function* callee = vx->callee_file >= 0 && vx->callee_function >= 0
                                     ? &unit_.files[static_cast<std::size_t>(vx->callee_file)]
                                            .functions[static_cast<std::size_t>(vx->callee_function)]
                                     : nullptr;
        if (const TypeInfo* out = outArgumentType(*vx, i)) {
          ti = *out;
        } else if (std::optional<TypeInfo> r = callee ? tupleReturnElement(*callee, i) : std::nullopt) {
          ti = *r;  // `-> tuple[pl.Tensor[...], ...]` of an inline stage
        } else {
          ti.kind = fn_.values[static_cast<std::size_t>(vx->value)].type.kind;
        }
        ti.space = ti.kind == ValueKind::Tensor ? MemSpace::DDR : MemSpace::Unknown;
        bindTarget(kids[i], newValue("", ti, stmt, src), src, stmt);
      } else {
        bindTarget(kids[i], -1, src, stmt);
      }
    }
    return;
  }
  if (tx.kind == ExprKind::Subscript) {
    bool found = false;
    for (SubscriptAccess& a : fn_.subscripts)
      if (a.expr == target) {
        a.write = true;
        found = true;
      }
    if (!found && !tx.children.empty() && X(tx.children[0]).value >= 0)
      fn_.subscripts.push_back({stmt, target, X(tx.children[0]).value, true});
    // out[:] = v writes through the view: the view is not a value read here
    if (tx.value >= 0) {
      Value& view = fn_.values[static_cast<std::size_t>(tx.value)];
      view.on_chip = false;
      auto& uses = view.uses;
      uses.erase(std::remove(uses.begin(), uses.end(), stmt), uses.end());
    }
    return;
  }
}

void BodyBuilder::assignment(TSNode stmt_node, TSNode a, int parent, int depth) {
  int s = addStmt(StmtKind::Assign, stmt_node, parent, depth);
  TSNode right = childByField(a, "right");
  TSNode type = childByField(a, "type");
  // a = b = value: the innermost right side is the value, every left side a target.
  std::vector<TSNode> lefts{childByField(a, "left")};
  while (!isNull(right) && nodeType(right) == "assignment") {
    lefts.push_back(childByField(right, "left"));
    right = childByField(right, "right");
  }
  if (!isNull(right)) {
    S(s).value = expr(right, s, 0);
    useChild(S(s).value, s);
  }
  if (!isNull(type)) S(s).annotation = expr(unwrapType(type), s, 0);
  for (TSNode l : lefts) {
    int target = expr(l, s, 0);
    if (target < 0) continue;
    S(s).targets.push_back(target);
    bindTargets(target, S(s).value, s);
  }
  // a: pl.Tile[[64, 128], pl.FP32] = ...: the annotation fills what inference left unknown.
  if (S(s).annotation >= 0 && S(s).targets.size() == 1 && X(S(s).targets[0]).value >= 0) {
    TypeInfo ann = annotationType(S(s).annotation, nullptr, nullptr);
    Value& v = fn_.values[static_cast<std::size_t>(X(S(s).targets[0]).value)];
    if (ann.kind != ValueKind::Unknown) {
      if (v.type.kind == ValueKind::Unknown) v.type.kind = ann.kind;
      if (!v.type.shape.rank_known) v.type.shape = ann.shape;
      if (v.type.dtype == DType::Unknown) v.type.dtype = ann.dtype;
      if (v.type.space == MemSpace::Unknown) v.type.space = ann.space;
      if (v.type.kind == ValueKind::Tile) v.on_chip = true;
    }
  }
  close(s);
}

void BodyBuilder::augAssignment(TSNode stmt_node, TSNode a, int parent, int depth) {
  int s = addStmt(StmtKind::Unsupported, stmt_node, parent, depth);
  S(s).unsupported = "AugAssign";
  S(s).value = expr(childByField(a, "right"), s, 0);
  useChild(S(s).value, s);
  int target = expr(childByField(a, "left"), s, 0);  // read (x += 1 reads x)
  if (target >= 0) {
    S(s).targets.push_back(target);
    if (X(target).kind == ExprKind::Name) {
      const TypeInfo* old = typeOf(target);
      TypeInfo ti = old ? *old : TypeInfo{};
      int v = newValue(X(target).name, ti, s, target);
      fn_.values[static_cast<std::size_t>(v)].on_chip = ti.kind == ValueKind::Tile;
      bind(X(target).name, v, s);
    }
  }
  close(s);
}

}  // namespace portcheck::dsl::detail
