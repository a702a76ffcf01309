#include "lint/dsl/unwritten_output_check.h"

#include <algorithm>

#include "lint/dsl/buffer_writes.h"
#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

namespace {

// ": it is passed to 'k' (line 12), which never writes it" and the like.
std::string uoFlowText(const BufferUse& use) {
  std::string s;
  if (!use.passed_to.empty()) {
    s = ": it is passed to ";
    for (std::size_t i = 0; i < use.passed_to.size() && i < 3; ++i) {
      if (i) s += ", ";
      s += "'" + use.passed_to[i].first + "' (line " + std::to_string(use.passed_to[i].second) + ")";
    }
    s += use.passed_to.size() == 1 ? ", which never writes it" : ", none of which writes it";
  } else if (use.read) {
    s = ": it is only read";
  }
  return s;
}

// The first statement that rebinds a parameter's name to a value that does not read the parameter
// (`c = tmp`, `c = kernel(a, tmp)`; not `c = kernel(a, c)`), or nullptr.
const dsl::Value* uoRebinding(const dsl::Function& fn, const dsl::Param& p) {
  for (const dsl::Value& v : fn.values) {
    if (v.name != p.name || v.param >= 0 || v.def_stmt < 0) continue;
    bool reads_param = false;
    for (const dsl::Expr& e : fn.exprs)
      if (e.stmt == v.def_stmt && e.kind == dsl::ExprKind::Name && e.value == p.value) reads_param = true;
    if (!reads_param) return &v;
  }
  return nullptr;
}

bool uoCreatesTensor(const dsl::Expr& call) {
  return call.isPlCall() && (call.pl_name == "create_tensor" || call.pl_name == "tensor.create" ||
                             call.pl_name == "tensor.create_tensor");
}

}  // namespace

void UnwrittenOutputCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  BufferWriteFlow flow(ctx.program);
  for (const dsl::FileModel& file : ctx.program.files) {
    if (!file.parsed) continue;
    for (const dsl::Function& fn : file.functions) {
      if (!fn.isDsl() || fn.stmts.empty() || fn.kind == dsl::FunctionKind::JitExtern || isHost(fn)) continue;
      const bool called = flow.isCalled(fn);
      // pl.Out parameters of what nothing in the unit calls: the entry, a standalone kernel. A kernel's
      // outputs are judged here, at its caller, through the calls that pass them.
      for (const dsl::Param& p : fn.params) {
        if (called) break;
        if (p.is_self || p.direction != dsl::Direction::Out || p.type.kind != dsl::ValueKind::Tensor) continue;
        if (onlyReturned(fn, p)) continue;  // DSL122's
        const BufferUse use = flow.follow(fn, p.value);
        if (use.written) continue;
        std::string msg = "'" + p.name + "' is pl.Out of '" + fn.name + "' but no kernel writes it on any path" +
                          uoFlowText(use);
        if (const dsl::Value* r = uoRebinding(fn, p))
          msg += "; line " + std::to_string(stmtOf(fn, r->def_stmt).loc.line) + " rebinds the name '" + p.name +
                 "' to another tensor, which writes nothing into the caller's buffer (the compiler says so only "
                 "for @pl.program code: \"Assigning to Out parameter '" + p.name + "' in function '" + fn.name +
                 "' rebinds the name only — the caller's buffer is never written\", OutParamWriteDropped)";
        msg += "; the output keeps its initial contents and the golden compares those";
        out.push_back(makeDiagnostic(id(), file.path, p.loc.line, p.loc.col, std::move(msg)));
      }
      // Tensors the orchestration allocates and then returns or hands to kernels as outputs.
      for (std::size_t vi = 0; vi < fn.values.size(); ++vi) {
        const dsl::Value& v = fn.values[vi];
        if (v.name.empty() || v.def_expr < 0 || v.def_stmt < 0 || stmtOf(fn, v.def_stmt).incore) continue;
        if (v.type.kind == dsl::ValueKind::Tile) continue;
        const dsl::Expr& def = exprOf(fn, v.def_expr);
        if (!uoCreatesTensor(def) || def.value != static_cast<int>(vi)) continue;
        // pl.create_tensor(..., init_value=0) fills it: written at its birth
        if (std::any_of(def.kwargs.begin(), def.kwargs.end(), [](const auto& kw) { return kw.first == "init_value"; }))
          continue;
        const BufferUse use = flow.follow(fn, static_cast<int>(vi));
        if (use.written) continue;
        if (use.returned && called) continue;  // the caller may write it
        // An output: returned, or passed for a kernel's pl.Out / pl.InOut parameter. A tensor only read
        // (a dummy argument a kernel may never touch) is not reported.
        if (!use.returned && !use.passed_as_output) continue;
        std::string msg = "'" + v.name + "' is made by " + plSpelled(def.pl_name) + " and " +
                          (use.returned ? "returned by '" + fn.name + "'" : std::string("handed to kernels as an output")) +
                          " but no kernel writes it on any path" + uoFlowText(use) +
                          "; what reads it reads uninitialised GM";
        out.push_back(makeDiagnostic(id(), file.path, def.loc.line, def.loc.col, std::move(msg)));
      }
    }
  }
}

}  // namespace portcheck
