#include "lint/dsl/implicit_tensor_access_check.h"

#include "lint/dsl/dsl_check_util.h"
#include "rules/catalogue.h"

namespace portcheck {

using namespace dsl_util;

void ImplicitTensorAccessCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                          std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    for (const dsl::SubscriptAccess& s : fn.subscripts) {
      if (s.stmt < 0) continue;  // outside any statement (an annotation): no tensor access at run time
      const dsl::Stmt& st = stmtOf(fn, s.stmt);
      if (!st.incore || s.base_value < 0) continue;
      const dsl::Value& base = fn.values[static_cast<std::size_t>(s.base_value)];
      if (base.type.kind != dsl::ValueKind::Tensor || base.on_chip) continue;
      const dsl::Expr& e = exprOf(fn, s.expr);
      std::string name = base.name.empty() ? std::string(file.text(e)) : base.name;
      if (s.write)
        out.push_back(makeDiagnostic("DSL112", file.path, e.loc.line, e.loc.col,
                                     "tensor '" + name + "' written through subscript sugar inside incore code; "
                                     "the porting method writes GM only with an explicit pl.store (TSTORE)",
                                     "compute the result into a tile and write it with "
                                     "`pl.store(tile, [row, col], " + name + ")`"));
      else
        out.push_back(makeDiagnostic("DSL112", file.path, e.loc.line, e.loc.col,
                                     "tensor '" + name + "' read through subscript sugar inside incore code; "
                                     "the porting method reads GM only with an explicit pl.load (TLOAD)",
                                     "load the block explicitly: `t = pl.load(" + name + ", [row, col], [rows, cols])`"));
    }
  }
}

}  // namespace portcheck
