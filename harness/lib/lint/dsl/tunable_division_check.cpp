#include "lint/dsl/tunable_division_check.h"

#include <set>

#include "dsl/floor_divisions.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// The divisions by `name`, one per line.
std::vector<dsl::FloorDivision> divisionsBy(const dsl::ProgramModel& program, const std::string& name) {
  std::vector<dsl::FloorDivision> found;
  std::set<std::pair<std::string, int>> seen;
  for (dsl::FloorDivision& d : dsl::floorDivisions(program))
    if (d.name == name && seen.insert({d.file, d.line}).second) found.push_back(std::move(d));
  return found;
}

}  // namespace

void TunableDivisionCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const dsl::FileModel& file : ctx.program.files)
    for (const dsl::Tunable& t : file.tunables) {
      std::vector<dsl::FloorDivision> divisions = divisionsBy(ctx.program, t.name);
      for (const auto& [value, loc] : t.candidates) {
        if (!value.isInt() || value.i <= 0) continue;  // TUNE001's
        for (const dsl::FloorDivision& d : divisions) {
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
