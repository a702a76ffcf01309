#include "lint/dsl/unknown_pl_operation_check.h"

#include "dsl/pl_names.h"
#include "lint/dsl/dsl_check_util.h"
#include "lint/dsl/removed_api_check.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

void UnknownPlOperationCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                        std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    for (int c : fn.calls) {
      const dsl::Expr& call = exprOf(fn, c);
      if (call.pl_name.empty() || dsl::findPlName(call.pl_name)) continue;
      if (isRemovedPlApi(call.pl_name)) continue;  // DSL124 names what replaced it
      std::string message;
      std::size_t dot = call.pl_name.find('.');
      const dsl::PlName* ns = dot == std::string::npos ? nullptr : dsl::findPlName(call.pl_name.substr(0, dot));
      if (ns && ns->kind == dsl::PlNameKind::Namespace && call.pl_name.find('.', dot + 1) == std::string::npos)
        message = "Unknown " + call.pl_name.substr(0, dot) + " operation: " + call.pl_name.substr(dot + 1);
      else
        message = "Unknown operation '" + plSpelled(call.pl_name) + "'";
      out.push_back(makeDiagnostic("DSL114", file.path, call.loc.line, call.loc.col, message,
                                   "Check spelling, or use pl.tensor.*/pl.tile.*/pl.system.* for explicit namespacing"));
    }
  }
}

}  // namespace portcheck
