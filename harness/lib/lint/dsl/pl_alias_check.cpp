#include "lint/dsl/pl_alias_check.h"

#include "rules/catalogue.h"

namespace portcheck {

void PlAliasCheck::checkFile(const DslCheckContext&, const dsl::FileModel& file, std::vector<Diagnostic>& out) const {
  for (const dsl::PlAlias& a : file.pl_aliases) {
    if (a.module != "pypto.language" || a.alias == "pl") continue;
    std::string as = a.alias == "pypto.language" ? "without an alias" : "as '" + a.alias + "'";
    out.push_back(makeDiagnostic("DSL110", file.path, a.loc.line, a.loc.col,
                                 "pypto.language imported " + as +
                                     ": PyPTO compiles it (e2d0f78 accepts another alias), but the porting canon, "
                                     "pypto-lib and port-check's messages spell every operation pl.*",
                                 "write `import pypto.language as pl` and use pl.* throughout"));
  }
}

}  // namespace portcheck
