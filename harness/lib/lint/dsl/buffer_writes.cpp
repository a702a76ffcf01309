#include "lint/dsl/buffer_writes.h"

#include "dsl/pl_names.h"
#include "lint/dsl/dsl_check_util.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// Operations that write into a tensor argument (the output of a store, the target of an assemble).
bool bwWriterOp(std::string_view op) {
  return op == "store" || op == "assemble" || op == "write" || op == "mscatter" || op == "scatter" ||
         op == "scatter_update" || op == "scatter_mask" || op == "fillpad_inplace";
}

// Operations whose result is a view of their first argument: the same buffer under another shape.
bool bwViewOp(std::string_view op) {
  return op == "reshape" || op == "view" || op == "slice" || op == "transpose" || op == "transpose_view" ||
         op == "reinterpret_view" || op == "set_validshape";
}

// The argument a writer op writes (store's output tensor, assemble's / write's target), or -1.
int bwWrittenArg(const dsl::Function& fn, const dsl::Expr& call) {
  std::string_view b = opBase(call.pl_name);
  if (b == "store" || b == "mscatter") return fn.arg(call, 2, "output_tensor");
  if (b == "assemble") return fn.arg(call, 0, "target");
  if (b == "write") return fn.arg(call, 0, "tensor");
  return -1;
}

// The parameter of `callee` that argument expression `x` of `call` binds, or nullptr.
const dsl::Param* bwBoundParam(const dsl::Expr& call, int x, const dsl::Function& callee) {
  std::size_t first = (!callee.params.empty() && callee.params.front().is_self) ? 1 : 0;
  for (std::size_t i = 0; i < call.args.size(); ++i)
    if (call.args[i] == x) return first + i < callee.params.size() ? &callee.params[first + i] : nullptr;
  for (const auto& [kw, e] : call.kwargs) {
    if (e != x) continue;
    for (const dsl::Param& p : callee.params)
      if (p.name == kw) return &p;
  }
  return nullptr;
}

// `return x` or `return x, y`: a statement that only hands tensors back (a call in a return can write).
bool bwReturnsNamesOnly(const dsl::Function& fn, int stmt) {
  const dsl::Stmt& st = stmtOf(fn, stmt);
  if (st.kind != dsl::StmtKind::Return || st.value < 0) return false;
  const dsl::Expr& e = exprOf(fn, st.value);
  if (e.kind == dsl::ExprKind::Name) return true;
  if (e.kind != dsl::ExprKind::Tuple) return false;
  for (int c : e.children)
    if (exprOf(fn, c).kind != dsl::ExprKind::Name) return false;
  return true;
}

}  // namespace

bool onlyReturned(const dsl::Function& fn, const dsl::Param& p) {
  for (const dsl::Value& v : fn.values) {
    if (v.name != p.name) continue;
    if (v.param < 0 && v.def_stmt >= 0) return false;  // rebound: something produced a new value for it
    for (int u : v.uses)
      if (!bwReturnsNamesOnly(fn, u)) return false;
  }
  return true;
}

BufferWriteFlow::BufferWriteFlow(const dsl::ProgramModel& pm) : pm_(pm) {
  for (const dsl::FileModel& file : pm.files)
    for (const dsl::Function& fn : file.functions)
      for (int c : fn.calls) {
        const dsl::Expr& call = exprOf(fn, c);
        if (call.callee_file < 0 || call.callee_function < 0) continue;
        if (const dsl::Function* callee = pm.function({call.callee_file, call.callee_function}); callee && callee != &fn)
          called_.insert(callee);
      }
}

const BufferWriteFlow::Index& BufferWriteFlow::index(const dsl::Function& fn) const {
  if (auto it = indexes_.find(&fn); it != indexes_.end()) return it->second;
  Index ix;
  ix.parent.assign(fn.exprs.size(), -1);
  ix.target.assign(fn.exprs.size(), false);
  for (std::size_t i = 0; i < fn.exprs.size(); ++i)
    for (int c : fn.exprs[i].children)
      if (c >= 0 && static_cast<std::size_t>(c) < fn.exprs.size()) ix.parent[static_cast<std::size_t>(c)] = static_cast<int>(i);
  auto mark = [&](int t, auto& self) -> void {
    if (t < 0) return;
    ix.target[static_cast<std::size_t>(t)] = true;
    const dsl::Expr& e = exprOf(fn, t);
    if (e.kind == dsl::ExprKind::Tuple || e.kind == dsl::ExprKind::List)
      for (int c : e.children) self(c, self);
  };
  for (const dsl::Stmt& s : fn.stmts)
    if (s.kind == dsl::StmtKind::Assign || s.kind == dsl::StmtKind::For)
      for (int t : s.targets) mark(t, mark);
  for (std::size_t v = 0; v < fn.values.size(); ++v)
    if (fn.values[v].def_expr >= 0) ix.defined_by.emplace(fn.values[v].def_expr, static_cast<int>(v));
  for (std::size_t i = 0; i < fn.exprs.size(); ++i) {
    const dsl::Expr& e = fn.exprs[i];
    if (e.kind == dsl::ExprKind::Name && e.value >= 0 && !ix.target[i]) ix.reads.emplace(e.value, static_cast<int>(i));
  }
  return indexes_.emplace(&fn, std::move(ix)).first->second;
}

bool BufferWriteFlow::paramWritten(const dsl::Function& callee, const dsl::Param& p, int depth) const {
  if (depth > 8 || p.value < 0) return true;
  const auto key = std::make_pair(&callee, &p);
  if (auto it = param_written_.find(key); it != param_written_.end()) return it->second;
  param_written_[key] = true;  // a call cycle counts as a write
  const bool w = follow(callee, p.value, depth).written;
  param_written_[key] = w;
  return w;
}

BufferUse BufferWriteFlow::follow(const dsl::Function& fn, int value, int depth) const {
  const Index& ix = index(fn);
  BufferUse use;
  std::set<int> seen_values, seen_exprs;
  std::vector<int> values, exprs;
  auto addValue = [&](int v) {
    if (v >= 0 && seen_values.insert(v).second) values.push_back(v);
  };
  auto addExpr = [&](int x) {
    if (x >= 0 && seen_exprs.insert(x).second) exprs.push_back(x);
  };
  auto write = [&](int line) {
    use.written = true;
    use.write_line = line;
  };
  // The expression `x` yields the buffer too: what it binds, and where it goes next.
  auto passThrough = [&](int x) {
    addValue(exprOf(fn, x).value);
    addExpr(x);
  };
  // Every name an assignment target binds holds the buffer (over-approximated for tuples).
  auto bindAll = [&](int t, auto& self) -> void {
    if (t < 0) return;
    const dsl::Expr& e = exprOf(fn, t);
    if (e.kind == dsl::ExprKind::Name) addValue(e.value);
    if (e.kind == dsl::ExprKind::Tuple || e.kind == dsl::ExprKind::List)
      for (int c : e.children) self(c, self);
  };
  // Where the buffer carried by expression `x` goes.
  auto classify = [&](int x) {
    const dsl::Expr& e = exprOf(fn, x);
    for (auto [it, end] = ix.defined_by.equal_range(x); it != end; ++it) addValue(it->second);
    const int p = ix.parent[static_cast<std::size_t>(x)];
    if (p < 0) {
      if (e.stmt < 0) return write(e.loc.line);
      const dsl::Stmt& st = stmtOf(fn, e.stmt);
      switch (st.kind) {
        case dsl::StmtKind::Return: use.returned = true; return;
        case dsl::StmtKind::Assign:
          if (x != st.value) return;  // an annotation
          for (int t : st.targets) {
            const dsl::Expr& te = exprOf(fn, t);
            if (te.kind == dsl::ExprKind::Subscript) use.read = true;  // y[...] = x copies it into y
            else bindAll(t, bindAll);
          }
          return;
        case dsl::StmtKind::Expr: case dsl::StmtKind::For: case dsl::StmtKind::While: case dsl::StmtKind::If:
        case dsl::StmtKind::Scope:
          use.read = true;
          return;
        default: return write(st.loc.line);  // x += ..., statements the parser rejects
      }
    }
    const dsl::Expr& P = exprOf(fn, p);
    switch (P.kind) {
      case dsl::ExprKind::Call: {
        if (!P.children.empty() && P.children.front() == x) return write(P.loc.line);
        if (P.isPlCall()) {
          const std::string_view op = opBase(P.pl_name);
          if (P.pl_name == "yield_") return passThrough(p);
          const dsl::PlName* pn = dsl::findPlName(P.pl_name);
          if (!pn || !dsl::isOperation(pn->kind) || pn->kind == dsl::PlNameKind::SystemOp) return write(P.loc.line);
          if (bwWriterOp(op)) {
            if (op == "store" && fn.arg(P, 0, "tile") == x) {  // stored from, not into
              use.read = true;
              return;
            }
            return write(P.loc.line);
          }
          if (bwViewOp(op) && !P.args.empty() && P.args.front() == x) return passThrough(p);
          use.read = true;  // a pure operation reads it (pl.load, pl.dim, compute)
          return;
        }
        if (P.callee_file < 0 || P.callee_function < 0) return write(P.loc.line);  // a Python helper
        const dsl::Function* callee = pm_.function({P.callee_file, P.callee_function});
        if (!callee || !callee->isDsl() || callee->stmts.empty() || callee->kind == dsl::FunctionKind::JitExtern)
          return write(P.loc.line);
        const dsl::Param* cp = bwBoundParam(P, x, *callee);
        if (!cp || paramWritten(*callee, *cp, depth + 1)) return write(P.loc.line);
        use.read = true;
        use.passed_to.emplace_back(callee->name, P.loc.line);
        if (cp->direction == dsl::Direction::In) return;  // a kernel hands back its outputs, not its inputs
        use.passed_as_output = true;
        return passThrough(p);
      }
      case dsl::ExprKind::Subscript:
        if (P.children.empty() || P.children.front() != x) {
          use.read = true;  // an index
          return;
        }
        if (ix.target[static_cast<std::size_t>(p)]) return write(P.loc.line);
        for (const dsl::SubscriptAccess& s : fn.subscripts)
          if (s.expr == p && s.write) return write(P.loc.line);
        return passThrough(p);  // a view of it
      case dsl::ExprKind::Tuple: case dsl::ExprKind::List:
        for (const dsl::Loop& l : fn.loops)
          if (l.init_values == p) {
            for (std::size_t v = 0; v < fn.values.size(); ++v)
              if (fn.values[v].loop_carried && fn.values[v].carried_loop == l.stmt) addValue(static_cast<int>(v));
            return;
          }
        return addExpr(p);  // the tuple carries it: returned, unpacked, passed on
      case dsl::ExprKind::Attribute:
        if (P.name == "shape" || P.name == "dtype" || P.name == "ndim") {
          use.read = true;
          return;
        }
        return write(P.loc.line);
      case dsl::ExprKind::BinOp: case dsl::ExprKind::UnaryOp: case dsl::ExprKind::Compare: case dsl::ExprKind::BoolOp:
      case dsl::ExprKind::Slice:
        use.read = true;
        return;
      default: return write(P.loc.line);
    }
  };
  if (value < 0 || static_cast<std::size_t>(value) >= fn.values.size()) {
    write(fn.loc.line);
    return use;
  }
  addValue(value);
  while (!use.written && (!values.empty() || !exprs.empty())) {
    if (!values.empty()) {
      const int v = values.back();
      values.pop_back();
      for (auto [it, end] = ix.reads.equal_range(v); it != end; ++it) addExpr(it->second);
      continue;
    }
    const int x = exprs.back();
    exprs.pop_back();
    classify(x);
  }
  return use;
}

}  // namespace portcheck
