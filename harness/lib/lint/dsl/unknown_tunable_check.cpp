#include "lint/dsl/unknown_tunable_check.h"

#include "rules/catalogue.h"

namespace portcheck {

void UnknownTunableCheck::check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
  for (const dsl::FileModel& file : ctx.program.files)
    for (const dsl::Tunable& t : file.tunables) {
      bool constant = false;
      for (const dsl::FileModel& f : ctx.program.files)
        if (const dsl::Constant* c = f.constant(t.name); c && !c->imported && c->value.isInt()) constant = true;
      if (!constant) {
        out.push_back(makeDiagnostic("TUNE001", file.path, t.loc.line, t.loc.col,
                                     "TUNABLES names '" + t.name +
                                         "', which is no module-level integer constant of this port: the tuner has "
                                         "nothing to substitute"));
        continue;
      }
      if (t.candidates.empty())
        out.push_back(makeDiagnostic("TUNE001", file.path, t.loc.line, t.loc.col,
                                     "TUNABLES gives '" + t.name + "' no candidates"));
      for (const auto& [value, loc] : t.candidates)
        if (!value.isInt() || value.i <= 0)
          out.push_back(makeDiagnostic("TUNE001", file.path, loc.line, loc.col,
                                       "a candidate of '" + t.name + "' is not a positive integer constant"));
    }
}

}  // namespace portcheck
