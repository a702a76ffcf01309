#include "lint/dsl/tile_parameter_check.h"

#include "rules/catalogue.h"

namespace portcheck {

void TileParameterCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file,
                                   std::vector<Diagnostic>& out) const {
  for (const dsl::Function& fn : file.functions) {
    // Inline helpers take tiles from their caller; every other DSL function is called with GM data.
    if (!fn.isDsl() || fn.isInline() || fn.kind == dsl::FunctionKind::JitExtern) continue;
    for (const dsl::Param& p : fn.params) {
      if (p.is_self || p.type.kind != dsl::ValueKind::Tile) continue;
      dsl::Loc at = p.has_annotation ? p.annotation_loc : p.loc;
      std::string kind(dsl::functionKindName(fn.kind));
      out.push_back(makeDiagnostic(
          "DSL107", file.path, at.line, at.col,
          "parameter '" + p.name + "' of " + kind + " function '" + fn.name +
              "' is typed pl.Tile: kernel and entry parameters are pl.Tensor or pl.Scalar, tiles live only on-chip",
          "declare '" + p.name + "' as pl.Tensor[[...], dtype] and pl.load the tile inside the kernel"));
    }
  }
}

}  // namespace portcheck
