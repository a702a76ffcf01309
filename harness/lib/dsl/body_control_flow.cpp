// Control flow: if / elif / else chains, for loops (range / pl.range / pl.pipeline / pl.unroll, with
// their trip counts and targets), while loops, and `with` scopes (pl.at and friends) that open incore
// regions.
#include "dsl/function_body_internal.h"

#include <algorithm>

namespace portcheck::dsl::detail {

void BodyBuilder::ifStatement(TSNode n, int parent, int depth) {
  int s = addStmt(StmtKind::If, n, parent, depth);
  S(s).value = expr(childByField(n, "condition"), s, 0);
  useChild(S(s).value, s);
  buildBlock(childByField(n, "consequence"), s, depth + 1);
  std::vector<TSNode> alternatives;
  for (TSNode c : namedChildren(n)) {
    if (nodeType(c) == "elif_clause" || nodeType(c) == "else_clause") alternatives.push_back(c);
  }
  buildAlternatives(alternatives, 0, s, depth + 1);
  close(s);
}

// else: / elif c: ... as an Else child of the If, an elif holding one nested If.
void BodyBuilder::buildAlternatives(const std::vector<TSNode>& alts, std::size_t i, int if_stmt, int depth) {
  if (i >= alts.size()) return;
  if (depth > kMaxNesting) {
    fm_.truncated = true;
    int s = addStmt(StmtKind::Unsupported, alts[i], if_stmt, depth);
    S(s).unsupported = "TooDeep";
    close(s);
    return;
  }
  int e = addStmt(StmtKind::Else, alts[i], if_stmt, depth);
  if (nodeType(alts[i]) == "else_clause") {
    buildBlock(childByField(alts[i], "body"), e, depth + 1);
  } else {
    int inner = addStmt(StmtKind::If, alts[i], e, depth + 1);
    S(inner).value = expr(childByField(alts[i], "condition"), inner, 0);
    useChild(S(inner).value, inner);
    buildBlock(childByField(alts[i], "consequence"), inner, depth + 2);
    buildAlternatives(alts, i + 1, inner, depth + 2);
    close(inner);
  }
  close(e);
}

LoopIter BodyBuilder::iterKind(const Expr& call, bool is_call, const std::unordered_map<std::string, int>& env) {
  if (!is_call) return LoopIter::Other;
  const std::string& pl = call.pl_name;
  if (pl == "range") return LoopIter::PlRange;
  if (pl == "parallel") return LoopIter::PlParallel;
  if (pl == "pipeline") return LoopIter::PlPipeline;
  if (pl == "spmd") return LoopIter::PlSpmd;
  if (pl == "unroll") return LoopIter::PlUnroll;
  if (pl == "while_") return LoopIter::PlWhile;
  if (pl == "split_aiv") return LoopIter::PlSplitAiv;
  if (pl.empty() && call.name == "range" && !env.count("range")) return LoopIter::PythonRange;
  return LoopIter::Other;
}

void BodyBuilder::forStatement(TSNode n, int parent, int depth) {
  int s = addStmt(StmtKind::For, n, parent, depth);
  Loop loop;
  loop.stmt = s;
  S(s).value = expr(childByField(n, "right"), s, 0);  // the iterator is evaluated outside the body
  useChild(S(s).value, s);
  if (S(s).value >= 0) {
    const Expr& it = X(S(s).value);
    loop.iter = iterKind(it, it.kind == ExprKind::Call, env_);
    if (it.kind == ExprKind::Call && loop.iter != LoopIter::Other) {
      std::vector<Number> pos;
      for (int a : it.args) pos.push_back(X(a).number);
      if (loop.iter == LoopIter::PlSpmd) {
        int core = fn_.arg(it, 0, "core_num");
        loop.start = Number::ofInt(0);
        loop.stop = core >= 0 ? X(core).number : Number{};
        loop.step = Number::ofInt(1);
      } else if (pos.size() == 1) {
        loop.start = Number::ofInt(0);
        loop.stop = pos[0];
        loop.step = Number::ofInt(1);
      } else if (pos.size() >= 2) {
        loop.start = pos[0];
        loop.stop = pos[1];
        loop.step = pos.size() >= 3 ? pos[2] : Number::ofInt(1);
      }
      if (loop.start.isInt() && loop.stop.isInt() && loop.step.isInt() && loop.step.i != 0) {
        std::int64_t span = loop.stop.i - loop.start.i;
        std::int64_t trips = loop.step.i > 0 ? (span + loop.step.i - 1) / loop.step.i
                                             : (span + loop.step.i + 1) / loop.step.i;
        loop.trip_count = std::max<std::int64_t>(0, trips);
      }
      for (const auto& [k, v] : it.kwargs) {
        if (k == "stage") loop.stage = X(v).number;
        else if (k == "init_values") loop.init_values = v;
      }
    }
  }
  S(s).loop = static_cast<int>(fn_.loops.size());
  fn_.loops.push_back(loop);
  loops_.push_back(s);
  int saved_region = region_;
  if (fn_.loops.back().iter == LoopIter::PlSpmd) {
    IncoreRegion r;
    r.kind = RegionKind::SpmdBody;
    r.stmt = s;
    r.first = s + 1;
    if (S(s).value >= 0 && X(S(s).value).kind == ExprKind::Call)
      for (const auto& [k, v] : X(S(s).value).kwargs)
        if (k == "name_hint" && X(v).kind == ExprKind::String) r.spmd_name_hint = X(v).name;
    region_ = static_cast<int>(fn_.regions.size());
    fn_.regions.push_back(r);
  }
  bindLoopTargets(childByField(n, "left"), s);
  buildBlock(childByField(n, "body"), s, depth + 1);
  TSNode alt = childByField(n, "alternative");
  if (!isNull(alt)) {
    int e = addStmt(StmtKind::Else, alt, s, depth + 1);
    buildBlock(childByField(alt, "body"), e, depth + 2);
    close(e);
  }
  loops_.pop_back();
  if (region_ != saved_region) fn_.regions[static_cast<std::size_t>(region_)].last = static_cast<int>(fn_.stmts.size());
  region_ = saved_region;
  close(s);
}

// for i, (a, b) in pl.range(..., init_values=(x, y)): i is the index, a and b are carried.
void BodyBuilder::bindLoopTargets(TSNode left, int s) {
  if (isNull(left)) return;
  Loop& loop = fn_.loops[static_cast<std::size_t>(S(s).loop)];
  int target = addExpr(ExprKind::Other, left, s);
  S(s).targets.push_back(target);
  std::vector<int> init_elems;
  if (loop.init_values >= 0) init_elems = X(loop.init_values).children;
  auto bindName = [&](TSNode id, int init) {
    std::string name(text(id));
    TypeInfo ti;
    if (init >= 0) {
      if (const TypeInfo* it = typeOf(init)) ti = *it;
    } else {
      ti.kind = ValueKind::Scalar;
      ti.dtype = DType::Index;
    }
    int v = newValue(name, ti, s, -1);
    Value& val = fn_.values[static_cast<std::size_t>(v)];
    if (init >= 0) {
      val.loop_carried = true;
      val.carried_loop = s;
      if (const Value* src = fn_.valueOf(init)) val.on_chip = src->on_chip;
      fn_.loops[static_cast<std::size_t>(S(s).loop)].carried.push_back(name);
    } else {
      fn_.loops[static_cast<std::size_t>(S(s).loop)].targets.push_back(name);
    }
    env_[name] = v;
  };
  auto flatten = [&](TSNode n, auto& self, int init) -> void {
    std::string_view t = nodeType(n);
    if (t == "identifier") return bindName(n, init);
    if (t == "pattern_list" || t == "tuple_pattern" || t == "list_pattern" || t == "parenthesized_expression" ||
        t == "tuple") {
      for (TSNode c : namedChildren(n)) {
        if (isComment(c)) continue;
        self(c, self, init);
      }
    }
  };
  // Binds the names of `n` in order to the next init_values (`k` counts the names bound so far).
  std::size_t k = 0;
  auto carried = [&](TSNode n, auto& self) -> void {
    if (nodeType(n) == "identifier") {
      bindName(n, k < init_elems.size() ? init_elems[k] : -1);
      ++k;
      return;
    }
    for (TSNode child : namedChildren(n)) self(child, self);
  };
  std::string_view lt = nodeType(left);
  bool has_carried = loop.init_values >= 0 && (lt == "pattern_list" || lt == "tuple_pattern");
  if (!has_carried) {
    if (loop.iter == LoopIter::PlWhile && loop.init_values >= 0) {
      // for (a, b) in pl.while_(init_values=(x, y)): everything is carried
      carried(left, carried);
      return;
    }
    flatten(left, flatten, -1);
    return;
  }
  // first element: the index (possibly a tuple), the rest: carried values matched to init_values
  uint32_t count = ts_node_named_child_count(left);
  bool index_done = false;
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(left, i);
    if (isComment(c)) continue;
    if (!index_done) {
      flatten(c, flatten, -1);
      index_done = true;
      continue;
    }
    carried(c, carried);
  }
}

void BodyBuilder::whileStatement(TSNode n, int parent, int depth) {
  int s = addStmt(StmtKind::While, n, parent, depth);
  S(s).value = expr(childByField(n, "condition"), s, 0);
  useChild(S(s).value, s);
  Loop loop;
  loop.stmt = s;
  loop.iter = LoopIter::PythonWhile;
  S(s).loop = static_cast<int>(fn_.loops.size());
  fn_.loops.push_back(loop);
  loops_.push_back(s);
  buildBlock(childByField(n, "body"), s, depth + 1);
  loops_.pop_back();
  close(s);
}

void BodyBuilder::withStatement(TSNode n, int parent, int depth) {
  int s = addStmt(StmtKind::Scope, n, parent, depth);
  Scope scope;
  scope.stmt = s;
  TSNode clause{};
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
    if (nodeType(ts_node_named_child(n, i)) == "with_clause") clause = ts_node_named_child(n, i);
  TSNode item = isNull(clause) ? TSNode{} : ts_node_named_child(clause, 0);
  TSNode value = isNull(item) ? TSNode{} : childByField(item, "value");
  if (!isNull(value) && nodeType(value) == "as_pattern") {
    TSNode alias = childByField(value, "alias");
    if (!isNull(alias)) scope.as_name = std::string(text(alias));
    value = ts_node_named_child(value, 0);
  }
  if (!isNull(value)) {
    scope.call = expr(value, s, 0);
    S(s).value = scope.call;
    useChild(scope.call, s);
  }
  if (scope.call >= 0 && X(scope.call).kind == ExprKind::Call) describeScope(scope);
  // further with-items (with a, b:) are evaluated too
  for (uint32_t i = 1; !isNull(clause) && i < ts_node_named_child_count(clause); ++i) {
    TSNode v = childByField(ts_node_named_child(clause, i), "value");
    if (!isNull(v)) useChild(expr(v, s, 0), s);
  }
  S(s).scope = static_cast<int>(fn_.scopes.size());
  bool opens_region = (scope.kind == ScopeKind::At && (scope.level.empty() || scope.level == "CORE_GROUP")) ||
                      scope.kind == ScopeKind::Spmd;
  fn_.scopes.push_back(scope);
  if (!scope.as_name.empty()) {
    TypeInfo ti;
    ti.kind = ValueKind::Scalar;
    env_[scope.as_name] = newValue(scope.as_name, ti, s, scope.call);
  }
  int saved_region = region_;
  if (opens_region) {
    IncoreRegion r;
    r.kind = scope.kind == ScopeKind::At ? RegionKind::AtScope : RegionKind::SpmdBody;
    r.scope = S(s).scope;
    r.stmt = s;
    r.first = s + 1;
    region_ = static_cast<int>(fn_.regions.size());
    fn_.regions.push_back(r);
  }
  buildBlock(childByField(n, "body"), s, depth + 1);
  if (region_ != saved_region) fn_.regions[static_cast<std::size_t>(region_)].last = static_cast<int>(fn_.stmts.size());
  region_ = saved_region;
  close(s);
}

void BodyBuilder::describeScope(Scope& scope) {
  const Expr& call = X(scope.call);
  const std::string& pl = call.pl_name;
  // pl.incore() / pl.auto_incore(), retired (DSL124), meant a pl.at(CORE_GROUP) scope: modelled as one,
  // so the rules after DSL124 do not see its body as orchestration code.
  scope.kind = pl == "at" || pl == "incore" || pl == "auto_incore" ? ScopeKind::At
               : pl == "spmd"      ? ScopeKind::Spmd
               : pl == "cluster"   ? ScopeKind::Cluster
               : pl == "split_aiv" ? ScopeKind::SplitAiv
                                   : ScopeKind::Other;
  int level = fn_.arg(call, 0, "level");
  if (level >= 0) {
    std::string_view lv = X(level).pl_name;
    if (lv.rfind("Level.", 0) == 0) scope.level = std::string(lv.substr(6));
    else scope.level = std::string(fm_.text(X(level)));
  }
  for (const auto& [k, v] : call.kwargs) {
    if (k == "name_hint" && X(v).kind == ExprKind::String) {
      scope.name_hint = X(v).name;
      scope.has_name_hint = true;
    } else if (k == "optimizations" || k == "optimization") {
      std::vector<int> entries = (X(v).kind == ExprKind::List || X(v).kind == ExprKind::Tuple) ? X(v).children
                                                                                               : std::vector<int>{v};
      for (int o : entries) {
        const Expr& oe = X(o);
        std::string name = oe.pl_name;  // pl.split(...) and optimizations.split alike
        if (name.empty()) name = std::string(fm_.text(oe));
        if (name.rfind("optimizations.", 0) == 0) name = name.substr(14);
        scope.optimizations.push_back(name);
        if (oe.kind != ExprKind::Call) continue;
        if (name == "split") {
          int mode = fn_.arg(oe, 0, "mode");
          if (mode >= 0) {
            std::string_view m = X(mode).pl_name;
            scope.split_mode = m.rfind("SplitMode.", 0) == 0 ? std::string(m.substr(10)) : std::string(fm_.text(X(mode)));
          }
          int slots = fn_.arg(oe, 99, "slot_num");
          if (slots >= 0) scope.cross_core_slots = X(slots).number;
        } else if (name == "cross_core_slot") {
          int slots = fn_.arg(oe, 99, "slot_num");
          if (slots >= 0) scope.cross_core_slots = X(slots).number;
        }
      }
    }
  }
}

}  // namespace portcheck::dsl::detail
