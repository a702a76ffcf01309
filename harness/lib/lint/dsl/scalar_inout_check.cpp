#include "lint/dsl/scalar_inout_check.h"

#include "rules/catalogue.h"

namespace portcheck {

void ScalarInOutCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                 std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    if (!fn.isDsl()) continue;
    for (const dsl::Param& p : fn.params) {
      if (p.is_self || p.type.kind != dsl::ValueKind::Scalar || p.direction == dsl::Direction::In) continue;
      dsl::Loc at = p.has_annotation ? p.annotation_loc : p.loc;
      std::string dir = p.direction == dsl::Direction::Out ? "pl.Out" : "pl.InOut";
      out.push_back(makeDiagnostic(
          "DSL108", file.path, at.line, at.col,
          "scalar parameter '" + p.name + "' is declared " + dir +
              ": a pl.Scalar can only be an input (the parser: \"Scalar parameters cannot have InOut direction\")",
          "pass a value computed by a kernel back through a 1-element pl.Out tensor, and declare '" + p.name +
              "' as plain pl.Scalar[dtype]"));
    }
  }
}

}  // namespace portcheck
