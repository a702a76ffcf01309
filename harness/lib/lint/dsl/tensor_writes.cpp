#include "lint/dsl/tensor_writes.h"

#include "lint/dsl/dsl_check_util.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// Position of the GM tensor an op writes (store's output tensor, assemble's target), or -1.
int writtenArg(const dsl::Function& fn, const dsl::Expr& call) {
  std::string_view b = opBase(call.pl_name);
  if (b == "store" || b == "mscatter") return fn.arg(call, 2, "output_tensor");
  if (b == "assemble") return fn.arg(call, 0, "target");
  if (b == "write") return fn.arg(call, 0, "tensor");
  return -1;
}

// True when the value an expression refers to is parameter `p` (directly, or a rebinding of its
// name by `c = kernel(..., c)` / `c = pl.store(..., c)`).
bool refersTo(const dsl::Function& fn, int expr, const dsl::Param& p) {
  const dsl::Value* v = fn.valueOf(expr);
  if (!v) return false;
  if (v->param >= 0) return v->name == p.name;
  if (v->name != p.name || v->def_expr < 0) return false;
  const dsl::Expr& def = exprOf(fn, v->def_expr);
  if (def.kind != dsl::ExprKind::Call) return false;
  if (def.callee_function >= 0) return true;
  std::string_view b = opBase(def.pl_name);
  return b == "store" || b == "assemble";
}


// Statements of `fn` that write the tensor named `name` directly (store / assemble / subscript).
bool isDirectWrite(const dsl::Function& fn, int stmt, const std::string& name) {
  for (int c : fn.calls) {
    const dsl::Expr& call = exprOf(fn, c);
    if (call.stmt != stmt) continue;
    if (int w = writtenArg(fn, call); w >= 0) {
      const dsl::Value* v = fn.valueOf(w);
      if (v && v->name == name) return true;
    }
  }
  for (const dsl::SubscriptAccess& s : fn.subscripts)
    if (s.stmt == stmt && s.write && s.base_value >= 0 && fn.values[static_cast<std::size_t>(s.base_value)].name == name)
      return true;
  return false;
}

// The tensor named `name` is used in `fn` other than by a write of it, the call at `except_stmt`
// or a return. Order is not considered: a KV cache is typically written at one slot and then read
// as a whole by the same kernel.
bool readElsewhere(const dsl::Function& fn, const std::string& name, int except_stmt) {
  for (const dsl::Value& v : fn.values) {
    if (v.name != name) continue;
    for (int u : v.uses) {
      if (u == except_stmt || stmtOf(fn, u).kind == dsl::StmtKind::Return) continue;
      if (isDirectWrite(fn, u, name)) continue;
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<Write> WriteFinder::writes(const dsl::Function& fn, const dsl::Param& p, int depth) const {
  if (depth > 8) return std::nullopt;
  const auto key = std::make_tuple(&fn, &p, depth);
  if (auto it = known_.find(key); it != known_.end()) return it->second;
  std::optional<Write> found = firstWrite(fn, p, depth);
  known_.emplace(key, found);
  return found;
}

std::optional<Write> WriteFinder::firstWrite(const dsl::Function& fn, const dsl::Param& p, int depth) const {
  for (int c : fn.calls) {
    const dsl::Expr& call = exprOf(fn, c);
    if (int w = writtenArg(fn, call); w >= 0 && refersTo(fn, w, p))
      return Write{call.loc.line, calleeText(call), readElsewhere(fn, p.name, -1)};
    if (call.callee_function < 0 || call.callee_file < 0) continue;
    const dsl::Function* callee = pm_.function({call.callee_file, call.callee_function});
    if (!callee) continue;
    std::size_t first = (!callee->params.empty() && callee->params.front().is_self) ? 1 : 0;
    for (std::size_t i = 0; i < call.args.size() && first + i < callee->params.size(); ++i) {
      if (!refersTo(fn, call.args[i], p)) continue;
      const dsl::Param& cp = callee->params[first + i];
      auto inner = writes(*callee, cp, depth + 1);
      if (cp.direction != dsl::Direction::In || inner)
        return Write{call.loc.line, "call to '" + callee->name + "'",
                     (inner && inner->also_read) || readElsewhere(fn, p.name, call.stmt)};
    }
    for (const auto& [kw, e] : call.kwargs) {
      if (!refersTo(fn, e, p)) continue;
      for (const dsl::Param& cp : callee->params) {
        if (cp.name != kw) continue;
        auto inner = writes(*callee, cp, depth + 1);
        if (cp.direction != dsl::Direction::In || inner)
          return Write{call.loc.line, "call to '" + callee->name + "'",
                       (inner && inner->also_read) || readElsewhere(fn, p.name, call.stmt)};
      }
    }
  }
  for (const dsl::SubscriptAccess& s : fn.subscripts) {
    if (!s.write || s.base_value < 0) continue;
    const dsl::Value& base = fn.values[static_cast<std::size_t>(s.base_value)];
    if (base.name == p.name && (base.param >= 0 || base.def_expr < 0 || refersTo(fn, base.def_expr, p)))
      return Write{stmtOf(fn, s.stmt).loc.line, "subscript assignment", readElsewhere(fn, p.name, -1)};
  }
  return std::nullopt;
}

}  // namespace portcheck
