#include "lint/dsl/tunable_division_check.h"

#include <set>

#include "rules/catalogue.h"

namespace portcheck {

namespace {

// A known extent the code floor-divides by the constant `name`: `EXTENT // name` in a function.
struct Division {
  std::int64_t extent = 0;
  std::string text;  // as written
  std::string file;
  int line = 0;
};

std::vector<Division> divisionsBy(const dsl::ProgramModel& program, const std::string& name) {
  std::vector<Division> found;
  std::set<std::pair<std::string, int>> seen;
  for (const dsl::FileModel& file : program.files)
    for (const dsl::Function& fn : file.functions)
      for (const dsl::Expr& e : fn.exprs) {
        if (e.kind != dsl::ExprKind::BinOp || e.name != "//" || e.children.size() != 2) continue;
        const dsl::Expr& left = fn.exprs[static_cast<std::size_t>(e.children[0])];
        const dsl::Expr& right = fn.exprs[static_cast<std::size_t>(e.children[1])];
        if (right.kind != dsl::ExprKind::Name || right.name != name || !left.number.isInt() || left.number.i <= 0) continue;
        if (!seen.insert({file.path, e.loc.line}).second) continue;
        found.push_back({left.number.i, std::string(file.text(e)), file.path, e.loc.line});
      }
  return found;
}

}  // namespace

void TunableDivisionCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const dsl::FileModel& file : ctx.program.files)
    for (const dsl::Tunable& t : file.tunables) {
      std::vector<Division> divisions = divisionsBy(ctx.program, t.name);
      for (const auto& [value, loc] : t.candidates) {
        if (!value.isInt() || value.i <= 0) continue;  // TUNE001's
        for (const Division& d : divisions) {
          if (d.extent % value.i == 0) continue;
          Diagnostic diag = makeDiagnostic(
              "TUNE002", file.path, loc.line, loc.col,
              "candidate " + std::to_string(value.i) + " of '" + t.name + "' does not divide " +
                  std::to_string(d.extent) + " in '" + d.text + "': " + std::to_string(d.extent % value.i) +
                  " elements would be left unprocessed");
          diag.notes.push_back({d.file, d.line, 0, "the division it breaks"});
          out.push_back(std::move(diag));
          break;  // one finding per candidate: the first division it breaks
        }
      }
    }
}

}  // namespace portcheck
