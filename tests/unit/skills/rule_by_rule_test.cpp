// The diagnostics skill's rule-by-rule table (skills/port-check-diagnostics/references/rule-by-rule.md)
// gives an action for every rule an agent can meet: a rule added to the catalogue without its row fails
// here. The SKILL family is for pack authors and is summarised in one paragraph instead.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "rules/catalogue.h"
#include "test_support.h"

namespace portcheck::rule_by_rule_test {
namespace {

std::set<std::string> rowIds() {
  const std::string text =
      test::readFile(std::string(test::sourceDir()) + "/skills/port-check-diagnostics/references/rule-by-rule.md");
  std::set<std::string> ids;
  static const std::regex kRow(R"(\n\| ([A-Z]+[0-9]+) \|)");
  for (std::sregex_iterator it(text.begin(), text.end(), kRow), end; it != end; ++it) ids.insert((*it)[1]);
  return ids;
}

TEST(RuleByRule, EveryRuleAnAgentCanMeetHasARow) {
  const std::set<std::string> ids = rowIds();
  std::vector<std::string> missing;
  for (const RuleInfo& r : Catalogue::builtin().rules())
    if (r.family != "SKILL" && !ids.count(r.id)) missing.push_back(r.id);
  EXPECT_TRUE(missing.empty()) << "no row in rule-by-rule.md for " << ::testing::PrintToString(missing);
}

TEST(RuleByRule, EveryRowNamesARuleThatExists) {
  std::set<std::string> known;
  for (const RuleInfo& r : Catalogue::builtin().rules()) known.insert(r.id);
  for (const std::string& id : rowIds()) EXPECT_TRUE(known.count(id)) << id << " has a row but is not a rule";
}

}  // namespace
}  // namespace portcheck::rule_by_rule_test
