#include "lint/dsl/entry_output_not_out_check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "lint/dsl/dsl_check_util.h"
#include "lint/dsl/tensor_writes.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

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
