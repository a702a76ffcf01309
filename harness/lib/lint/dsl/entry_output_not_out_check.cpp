#include "lint/dsl/entry_output_not_out_check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

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

struct Write {
  int line = 0;
  std::string how;
  bool also_read = false;  // the tensor is read as data too: an in-place update (KV cache) rather than an output
};

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

class WriteFinder {
 public:
  explicit WriteFinder(const dsl::ProgramModel& pm) : pm_(pm) {}

  // Where `fn` writes parameter `p` (first write), if it does. Remembered: a kernel called from many
  // places (and every parameter passed to it) is read once per depth, not once per path to it.
  std::optional<Write> writes(const dsl::Function& fn, const dsl::Param& p, int depth = 0) const {
    if (depth > 8) return std::nullopt;
    const auto key = std::make_tuple(&fn, &p, depth);
    if (auto it = known_.find(key); it != known_.end()) return it->second;
    std::optional<Write> found = firstWrite(fn, p, depth);
    known_.emplace(key, found);
    return found;
  }

 private:
  std::optional<Write> firstWrite(const dsl::Function& fn, const dsl::Param& p, int depth) const {
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

  const dsl::ProgramModel& pm_;
  mutable std::map<std::tuple<const dsl::Function*, const dsl::Param*, int>, std::optional<Write>> known_;
};

bool entryHasOutputParam(const dsl::Function& fn) {
  return std::any_of(fn.params.begin(), fn.params.end(),
                     [](const dsl::Param& p) { return !p.is_self && p.direction != dsl::Direction::In; });
}

// The function returns the tensor named `name` (alone or in a tuple).
bool entryReturns(const dsl::Function& fn, const std::string& name) {
  for (const dsl::Stmt& s : fn.stmts) {
    if (s.kind != dsl::StmtKind::Return || s.value < 0) continue;
    const dsl::Expr& e = fn.exprs[static_cast<std::size_t>(s.value)];
    if (e.kind == dsl::ExprKind::Name && e.name == name) return true;
    if (e.kind == dsl::ExprKind::Tuple)
      for (int c : e.children)
        if (fn.exprs[static_cast<std::size_t>(c)].kind == dsl::ExprKind::Name &&
            fn.exprs[static_cast<std::size_t>(c)].name == name)
          return true;
  }
  return false;
}

bool isEntry(const dsl::FileModel& file, const dsl::Function& fn) {
  if (fn.kind == dsl::FunctionKind::JitEntry || fn.kind == dsl::FunctionKind::Orchestration) return true;
  if (!fn.in_program || (fn.kind != dsl::FunctionKind::InCore && fn.kind != dsl::FunctionKind::Opaque)) return false;
  // A @pl.program without an orchestration function: the compiler generates one around its Opaque
  // functions (or, without those, its InCore kernels), so their parameters are the entry's.
  bool has_orch = false, has_opaque = false;
  for (const dsl::ProgramClass& pc : file.programs) {
    if (pc.name != fn.class_name) continue;
    for (int i : pc.functions) {
      dsl::FunctionKind k = file.functions[static_cast<std::size_t>(i)].kind;
      has_orch = has_orch || k == dsl::FunctionKind::Orchestration;
      has_opaque = has_opaque || k == dsl::FunctionKind::Opaque;
    }
  }
  if (has_orch) return false;
  return fn.kind == dsl::FunctionKind::Opaque || !has_opaque;
}

}  // namespace

void EntryOutputNotOutCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  WriteFinder finder(ctx.program);
  for (const dsl::FileModel& file : ctx.program.files) {
    if (!file.parsed) continue;
    for (const dsl::Function& fn : file.functions) {
      if (!isEntry(file, fn)) continue;
      for (const dsl::Param& p : fn.params) {
        if (p.is_self || p.direction != dsl::Direction::In) continue;
        if (p.type.kind != dsl::ValueKind::Tensor) continue;
        auto w = finder.writes(fn, p);
        if (!w) continue;
        dsl::Loc at = p.loc;
        std::string where = w->how + " at line " + std::to_string(w->line);
        if (!w->also_read) {
          // Certain when the host can get no result at all (no Out / InOut parameter) or the entry
          // returns this tensor as its result; otherwise the host may simply never read it (a scratch
          // or cache tensor of a test entry): a warning.
          bool certain = !entryHasOutputParam(fn) || entryReturns(fn, p.name);
          Diagnostic d = makeDiagnostic(
              "DSL109", file.path, at.line, at.col,
              "entry parameter '" + p.name + "' of '" + fn.name + "' is written (" + where +
                  ") but not declared pl.Out / pl.InOut: the host reads it back as all zeros" +
                  (certain ? "" : " (a warning: the entry has other outputs and does not return it)"),
              "annotate it `" + p.name + ": pl.Out[pl.Tensor[...]]` (pl.InOut when the kernel also reads its initial value)");
          if (!certain) d.severity = Severity::Warning;
          out.push_back(std::move(d));
          continue;
        }
        // Read and written: an in-place update (a KV cache). The device copy is updated, the host copy
        // is not; that is a bug only when something on the host compares it, so it is a warning.
        Diagnostic d = makeDiagnostic(
            "DSL109", file.path, at.line, at.col,
            "entry parameter '" + p.name + "' of '" + fn.name + "' is updated in place (" + where +
                ") but not declared pl.InOut: the host copy is not updated, a golden comparing it reads the old values",
            "annotate it `" + p.name + ": pl.InOut[pl.Tensor[...]]` when the golden (or the caller on the host) reads "
            "the updated tensor");
        d.severity = Severity::Warning;
        out.push_back(std::move(d));
      }
    }
  }
}

}  // namespace portcheck
