#include "lint/proj/no_contract_check.h"

#include "lint/proj/contract.h"
#include "rules/catalogue.h"

namespace portcheck {

void NoContractCheck::checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const {
  const proj::GoldenSource* golden = ctx.golden;
  if (!golden || !golden->parsed()) return;
  if (proj::readContract(*golden)) return;
  // A file that does not parse may hold a CONTRACT the parse lost: DSL001 speaks first.
  if (golden->hasSyntaxError()) return;
  out.push_back(makeDiagnostic(
      id(), golden->file().path, 0, 0,
      goldenName(ctx) + " declares no CONTRACT: the " + (ctx.block ? "block" : "port") +
          " is checked on one seed and one case, which shows it right for those inputs only"));
}

}  // namespace portcheck
