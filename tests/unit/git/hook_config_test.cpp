// The "hook" section of port-check.json, and linting in-memory units (what the hook feeds the engine).
#include <gtest/gtest.h>

#include "core/source_file.h"
#include "lint/lint_engine.h"
#include "test_support.h"
#include "workspace/config.h"

namespace portcheck {
namespace {

TEST(HookConfig, DefaultsCheckPortsAndPyptoLibLintOnlyAndAllowOnToolError) {
  Config c;
  EXPECT_EQ(c.hook.paths, (std::vector<std::string>{"projects/*/pypto_src/**", "pypto-lib/**"}));
  EXPECT_FALSE(c.hook.compile);
  EXPECT_FALSE(c.hook.block_on_tool_error);
}

TEST(HookConfig, SectionIsParsed) {
  ConfigLoad l = parseConfig(R"({"hook": {"paths": ["ports/**"], "compile": true, "on_tool_error": "block"}})", "c");
  EXPECT_TRUE(l.problems.empty());
  EXPECT_EQ(l.config.hook.paths, std::vector<std::string>{"ports/**"});
  EXPECT_TRUE(l.config.hook.compile);
  EXPECT_TRUE(l.config.hook.block_on_tool_error);
}

TEST(HookConfig, WrongTypesAreErrorsAndUnknownKeysWarnings) {
  ConfigLoad l = parseConfig(R"({"hook": {"paths": "x", "compile": "yes", "on_tool_error": "maybe", "colour": 1}})", "c");
  int errors = 0, warnings = 0;
  for (const Diagnostic& d : l.problems) {
    EXPECT_EQ(d.rule, "TOOL004");
    (d.severity == Severity::Error ? errors : warnings)++;
  }
  EXPECT_EQ(errors, 3);
  EXPECT_EQ(warnings, 1);
  EXPECT_EQ(parseConfig(R"({"hook": []})", "c").problems.size(), 1u);
}

Project memoryProject(const test::TempDir& ws, std::vector<std::string> tree) {
  Project p;
  p.name = "p";
  p.dir = ws.path() / "projects/p";
  p.pypto_src = p.dir / "pypto_src";
  p.tree = std::move(tree);
  return p;
}

TEST(MemoryUnits, ProjectChecksSeeTheGivenTreeNotTheDisk) {
  test::TempDir ws;
  ws.write("projects/p/pypto_src/golden.py", "x = 1\n");  // on disk, but not in the tree
  Config config;
  LintSettings settings{Platform::A2A3, &config};
  MemoryUnit unit;
  unit.project = memoryProject(ws, {"kernel.py"});
  unit.sources.push_back(*sourceFromBytes("def f(:\n", "projects/p/pypto_src/kernel.py").file);
  LintOutcome out = lintMemoryUnits(Workspace{ws.path()}, {unit}, settings, 1);
  std::vector<std::string> rules;
  for (const Diagnostic& d : out.diagnostics) rules.push_back(d.rule + " " + d.file);
  std::sort(rules.begin(), rules.end());
  EXPECT_EQ(rules, (std::vector<std::string>{"DSL001 projects/p/pypto_src/kernel.py", "PROJ001 projects/p/pypto_src"}));
  EXPECT_EQ(out.files, std::vector<std::string>{"projects/p/pypto_src/kernel.py"});

  // With golden.py in the tree (and not on disk) the project is complete.
  test::TempDir empty;
  MemoryUnit ok;
  ok.project = memoryProject(empty, {"golden.py"});
  EXPECT_TRUE(lintMemoryUnits(Workspace{empty.path()}, {ok}, settings, 1).diagnostics.empty());
}

TEST(MemoryUnits, ConfigExcludesAndRuleSettingsApply) {
  test::TempDir ws;
  ConfigLoad l = parseConfig(R"({"exclude": ["scratch/*"], "rules": {"DSL001": "warning"}})", "c");
  LintSettings settings{Platform::A2A3, &l.config};
  MemoryUnit a, b;
  a.sources.push_back(*sourceFromBytes("def f(:\n", "scratch/x.py").file);
  b.sources.push_back(*sourceFromBytes("def f(:\n", "lib/y.py").file);
  LintOutcome out = lintMemoryUnits(Workspace{ws.path()}, {a, b}, settings, 2);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].file, "lib/y.py");
  EXPECT_EQ(out.diagnostics[0].severity, Severity::Warning);
}

}  // namespace
}  // namespace portcheck
