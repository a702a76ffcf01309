#include "dsl/floor_divisions.h"

namespace portcheck::dsl {

std::vector<FloorDivision> floorDivisions(const ProgramModel& program) {
  std::vector<FloorDivision> found;
  for (const FileModel& file : program.files)
    for (const Function& fn : file.functions)
      for (const Expr& e : fn.exprs) {
        if (e.kind != ExprKind::BinOp || e.name != "//" || e.children.size() != 2) continue;
        const Expr& left = fn.exprs[static_cast<std::size_t>(e.children[0])];
        const Expr& right = fn.exprs[static_cast<std::size_t>(e.children[1])];
        if (right.kind != ExprKind::Name || !left.number.isInt() || left.number.i <= 0) continue;
        found.push_back({right.name, left.number.i, std::string(file.text(e)), file.path, e.loc.line, &fn});
      }
  return found;
}

}  // namespace portcheck::dsl
