// The PROJ module: registers every project check, and what they share.
#include "core/text.h"
#include "lint/proj/contract_missing_category_check.h"
#include "lint/proj/contract_seed_unused_check.h"
#include "lint/proj/invalid_contract_check.h"
#include "lint/proj/missing_golden_check.h"
#include "lint/proj/no_contract_check.h"
#include "lint/proj/port_imports_reference_check.h"
#include "lint/proj/project_check.h"
#include "lint/proj/tolerance_looser_check.h"

namespace portcheck {

const std::vector<std::unique_ptr<ProjectCheck>>& projectChecks() {
  static const auto kChecks = [] {
    std::vector<std::unique_ptr<ProjectCheck>> v;
    v.push_back(std::make_unique<MissingGoldenCheck>());
    v.push_back(std::make_unique<NoContractCheck>());
    v.push_back(std::make_unique<InvalidContractCheck>());
    v.push_back(std::make_unique<ContractMissingCategoryCheck>());
    v.push_back(std::make_unique<ContractSeedUnusedCheck>());
    v.push_back(std::make_unique<PortImportsReferenceCheck>());
    v.push_back(std::make_unique<ToleranceLooserCheck>());
    return v;
  }();
  return kChecks;
}

std::string goldenPathIn(std::string_view source_dir) {
  return source_dir.empty() ? std::string("golden.py") : std::string(source_dir) + "/golden.py";
}

std::string blockNameOf(std::string_view path) {
  constexpr std::string_view kLib = "pypto-lib/";
  if (!startsWith(path, kLib) || !endsWith(path, ".py")) return {};
  std::string_view rest = path.substr(kLib.size());
  const std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos || slash == 0) return {};
  std::string_view folder = rest.substr(0, slash);
  return rest.substr(slash + 1) == std::string(folder) + ".py" ? std::string(folder) : std::string();
}

std::string goldenName(const ProjectSourceContext& ctx) {
  return (ctx.block ? "the block file of '" : "golden.py of '") + std::string(ctx.project) + "'";
}

bool ProjectSourceContext::own(const SourceFile& f) const {
  return source_dir.empty() ? !startsWith(f.path, "pypto-lib/") : startsWith(f.path, source_dir + "/");
}

const SourceFile* ProjectSourceContext::file(std::string_view rel) const {
  const std::string path = source_dir.empty() ? std::string(rel) : source_dir + "/" + std::string(rel);
  for (const SourceFile& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

}  // namespace portcheck
