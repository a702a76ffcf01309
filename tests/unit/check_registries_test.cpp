// Every rule registry holds checks of its own families, each ID once across all registries and each in
// the catalogue. Two check classes of one name in two families (one namespace) link to one vtable: the
// registry of the second then runs the first under its ID, silently. This is where that shows.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "advice/advice_check.h"
#include "golden/run_check.h"
#include "ledger/loop_check.h"
#include "lint/dsl/dsl_check.h"
#include "lint/kernel/kernel_check.h"
#include "lint/mem/mem_check.h"
#include "lint/proj/project_check.h"
#include "rules/catalogue.h"

namespace portcheck {
namespace {

template <typename Registry>
std::vector<std::string> idsOf(const Registry& checks) {
  std::vector<std::string> ids;
  for (const auto& c : checks) ids.emplace_back(c->id());
  return ids;
}

// The run checks: one class per failure class or output verdict, several of which may report one rule.
template <typename Registry>
std::vector<std::string> ruleIdsOf(const Registry& checks) {
  std::set<std::string> ids;
  for (const auto& c : checks) ids.emplace(c->ruleId());
  return {ids.begin(), ids.end()};
}

TEST(CheckRegistries, EveryCheckIsOfItsRegistrysFamiliesAndRegisteredOnce) {
  const std::map<std::string, std::pair<std::vector<std::string>, std::set<std::string>>> registries = {
      {"dsl", {idsOf(dslChecks()), {"DSL", "TUNE"}}},
      {"kernel", {idsOf(kernelChecks()), {"AUTO", "ISA"}}},
      {"mem", {idsOf(memChecks()), {"MEM"}}},
      {"advice", {idsOf(adviceChecks()), {"FUSE", "PERF"}}},
      {"project", {idsOf(projectChecks()), {"PROJ"}}},
      {"loop", {idsOf(ledger::loopChecks()), {"LOOP"}}},
      {"run failure", {ruleIdsOf(runFailureChecks()), {"GOLD", "TOOL"}}},
      {"output", {ruleIdsOf(outputChecks()), {"GOLD"}}},
  };
  std::map<std::string, std::string> seen;  // ID -> registry
  for (const auto& [name, registry] : registries) {
    const auto& [ids, families] = registry;
    EXPECT_FALSE(ids.empty()) << name;
    for (const std::string& id : ids) {
      const std::string family = id.substr(0, id.find_first_of("0123456789"));
      EXPECT_TRUE(families.count(family)) << name << " registry runs " << id;
      EXPECT_NE(Catalogue::builtin().find(id), nullptr) << id;
      const auto [at, fresh] = seen.emplace(id, name);
      EXPECT_TRUE(fresh) << id << " is registered in " << at->second << " and " << name;
    }
  }
}

}  // namespace
}  // namespace portcheck
