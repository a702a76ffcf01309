#include "lint/proj/invalid_contract_check.h"

#include "lint/proj/contract.h"
#include "rules/catalogue.h"

namespace portcheck {

void InvalidContractCheck::checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const {
  if (!ctx.golden || !ctx.golden->parsed()) return;
  std::optional<proj::Contract> contract = proj::readContract(*ctx.golden);
  if (!contract) return;
  for (const proj::ContractProblem& p : contract->problems)
    out.push_back(makeDiagnostic(id(), ctx.golden->file().path, p.loc.line, p.loc.col, p.message));
}

}  // namespace portcheck
