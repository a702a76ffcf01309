#include "lint/dsl/orchestration_name_t_check.h"

#include <optional>
#include <string>

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using dsl_util::exprOf;
using dsl_util::stmtOf;

namespace {

// The temporary name PyPTO e2d0f78's orchestration codegen gives a flattened nested call
// (`t__tmp_vN`, stripped of its SSA suffix when the C++ is written).
constexpr std::string_view kOrchTempName = "t";

// The first call of orchestration code (outside every incore scope) with a call as a direct argument:
// the flattener hoists the inner call into a temporary.
const dsl::Expr* firstNestedOrchestrationCall(const dsl::Function& fn) {
  for (int c : fn.calls) {
    const dsl::Expr& call = exprOf(fn, c);
    if (dsl_util::inIncore(fn, call)) continue;
    for (int a : call.args)
      if (exprOf(fn, a).kind == dsl::ExprKind::Call) return &call;
  }
  return nullptr;
}

// Where a value named `t` is bound outside incore code: its parameter, loop target or assignment target.
std::optional<dsl::Loc> orchestrationBindingOfT(const dsl::Function& fn) {
  for (const dsl::Param& p : fn.params)
    if (p.name == kOrchTempName) return p.loc;
  for (const dsl::Value& v : fn.values) {
    if (v.name != kOrchTempName || v.def_stmt < 0) continue;
    const dsl::Stmt& s = stmtOf(fn, v.def_stmt);
    if (s.incore) continue;
    for (int t : s.targets) {
      const dsl::Expr& e = exprOf(fn, t);
      if (e.kind == dsl::ExprKind::Name && e.name != kOrchTempName) continue;
      return e.loc;
    }
    return s.loc;
  }
  return std::nullopt;
}

std::string shortText(std::string_view text) {
  constexpr std::size_t kMax = 60;
  return text.size() <= kMax ? std::string(text) : std::string(text.substr(0, kMax)) + "...";
}

}  // namespace

void OrchestrationNameTCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                        std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl() || fn.isIncoreFunction() || fn.isInline() || dsl_util::isHost(fn)) continue;
    const dsl::Expr* nested = firstNestedOrchestrationCall(fn);
    if (!nested) continue;
    std::optional<dsl::Loc> at = orchestrationBindingOfT(fn);
    if (!at) continue;
    out.push_back(makeDiagnostic(
        "DSL127", file.path, at->line, at->col,
        "orchestration variable 't' of '" + fn.name + "' is hidden by the temporary PyPTO's orchestration codegen "
            "names 't' for the nested call '" + shortText(file.text(*nested)) + "' (line " +
            std::to_string(nested->loc.line) +
            "): the generated C++ declares a second 't' and every later use reads the temporary, silently",
        "rename the variable (`tok`, `i`), or give the inner call a name of its own first"));
  }
}

}  // namespace portcheck
