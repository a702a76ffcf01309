#include <gtest/gtest.h>

#include "rules/catalogue.h"
#include "workspace/config.h"

namespace portcheck {
namespace {

TEST(Config, ParsesSettingsAndPerPathOverrides) {
  ConfigLoad l = parseConfig(R"({
    "platform": "a5", "fail_on": "warning",
    "rules": {"PROJ001": "warning"},
    "per_path": [{"path": "projects/legacy/*", "rules": {"PROJ001": "off"}}],
    "exclude": ["*/build_output/*"]
  })", "port-check.json");
  EXPECT_TRUE(l.problems.empty());
  EXPECT_EQ(l.config.platform, Platform::A5);
  EXPECT_EQ(l.config.fail_on, "warning");
  EXPECT_EQ(l.config.settingFor("PROJ001", "projects/x/a.py").severity, Severity::Warning);
  EXPECT_FALSE(l.config.settingFor("PROJ001", "projects/legacy/pypto_src/a.py").enabled);
  EXPECT_TRUE(l.config.excluded("projects/x/build_output/k.py"));
}

TEST(Config, ApplyDropsDisabledRulesAndRewritesSeverity) {
  ConfigLoad l = parseConfig(R"({"rules": {"PROJ001": "info", "DSL001": "off"}})", "c.json");
  std::vector<Diagnostic> ds = {makeDiagnostic("PROJ001", "a", 0, 0, "m"), makeDiagnostic("DSL001", "b", 1, 1, "m"),
                                makeDiagnostic("TOOL002", "c", 0, 0, "m")};
  l.config.apply(ds);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].severity, Severity::Info);
  EXPECT_EQ(ds[1].rule, "TOOL002");
}

TEST(Config, ToolFindingsCannotBeConfiguredAway) {
  ConfigLoad l = parseConfig(R"({"rules": {"TOOL002": "off"}})", "c.json");
  std::vector<Diagnostic> ds = {makeDiagnostic("TOOL002", "c", 0, 0, "m")};
  l.config.apply(ds);
  EXPECT_EQ(ds.size(), 1u);
}

TEST(Config, UnknownKeysAndRuleIdsAreWarnings) {
  ConfigLoad l = parseConfig(R"({"platfrom": "a5", "rules": {"NOPE123": "off"}})", "c.json");
  ASSERT_EQ(l.problems.size(), 2u);
  for (const Diagnostic& d : l.problems) {
    EXPECT_EQ(d.rule, "TOOL004");
    EXPECT_EQ(d.severity, Severity::Warning);
  }
}

TEST(Config, WrongTypesAndBadJsonAreErrors) {
  for (const char* text : {"{\"platform\": 5}", "{\"rules\": []}", "{\"rules\": {\"PROJ001\": \"of\"}}",
                           "{\"exclude\": \"x\"}", "not json", "[1, 2]"}) {
    ConfigLoad l = parseConfig(text, "c.json");
    ASSERT_FALSE(l.problems.empty()) << text;
    EXPECT_EQ(l.problems[0].severity, Severity::Error) << text;
  }
}

}  // namespace
}  // namespace portcheck
