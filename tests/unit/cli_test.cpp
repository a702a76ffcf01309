// The port-check binary: exit statuses, --version, --help on every level, unbuilt commands.
#include <gtest/gtest.h>

#include "test_support.h"

namespace portcheck {
namespace {

TEST(Cli, VersionNamesToolCatalogueAndToolchain) {
  test::TempDir ws;
  auto r = test::runBinary("--version", ws.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("port-check 0.2.0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rule catalogue "), std::string::npos);
  EXPECT_NE(r.out.find("toolchain: "), std::string::npos);
}

TEST(Cli, HelpExistsOnEveryLevel) {
  test::TempDir ws;
  for (const char* sub : {"", "lint ", "check ", "compile ", "report ", "ledger ", "rules ", "new ", "hook ", "skills "}) {
    auto r = test::runBinary(std::string(sub) + "--help", ws.path());
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("--format"), std::string::npos) << sub << r.out;
  }
}

TEST(Cli, BadArgumentsExitTwo) {
  test::TempDir ws;
  EXPECT_EQ(test::runBinary("lint --format xml .", ws.path()).exit_code, 2);
  EXPECT_EQ(test::runBinary("frobnicate", ws.path()).exit_code, 2);
  EXPECT_EQ(test::runBinary("lint", ws.path()).exit_code, 2);
  EXPECT_EQ(test::runBinary("lint --platform a9 .", ws.path()).exit_code, 2);
}

TEST(Cli, MissingInputPathExitsTwoWithADiagnostic) {
  test::TempDir ws;
  auto r = test::runBinary("lint projects/nope", ws.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("input path 'projects/nope' does not exist [TOOL001]"), std::string::npos) << r.out;
}

TEST(Cli, BrokenConfigExitsTwo) {
  test::TempDir ws;
  ws.write("port-check.json", "{ broken");
  ws.write("a.py", "x = 1\n");
  auto r = test::runBinary("lint a.py", ws.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("[TOOL004]"), std::string::npos) << r.out;
}

TEST(Cli, ReportOfAMissingPathIsAToolError) {
  test::TempDir ws;
  auto r = test::runBinary("report x", ws.path(), /*merge_stderr=*/true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("[TOOL001]"), std::string::npos) << r.out;
}

TEST(Cli, CheckReportsTheSkippedCompileStage) {
  test::TempDir ws;
  ws.write("projects/p/pypto_src/golden.py", "x = 1\n");
  auto r = test::runBinary("check projects/p", ws.path());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("compile stage skipped"), std::string::npos) << r.out;
}

TEST(Cli, ColorAlwaysForcesColourAndAPipeGetsNone) {
  test::TempDir ws;
  ws.write("projects/p/pypto_src/incore.py", "def f(:\n");
  EXPECT_EQ(test::runBinary("lint --color always projects/p", ws.path()).out.find("\x1b["), 0u);
  EXPECT_EQ(test::runBinary("lint projects/p", ws.path()).out.find("\x1b["), std::string::npos);
}

TEST(Cli, AutoColourOnATerminalHonoursNoColor) {
  test::TempDir ws;
  ws.write("projects/p/pypto_src/incore.py", "def f(:\n");
  auto run = [&](const char* no_color) {
    std::ostringstream out, err;
    Io io{out, err, /*out_is_terminal=*/true,
          [no_color](const char* name) -> const char* { return std::string(name) == "NO_COLOR" ? no_color : nullptr; }};
    runLint(test::optionsIn(ws.path()), {"projects/p"}, io);
    return out.str();
  };
  EXPECT_NE(run(nullptr).find("\x1b["), std::string::npos);
  EXPECT_EQ(run("1").find("\x1b["), std::string::npos);
}

TEST(Cli, RulesListsAndExplains) {
  test::TempDir ws;
  auto list = test::runBinary("rules", ws.path());
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_NE(list.out.find("PROJ001  error    missing-golden"), std::string::npos) << list.out;
  auto one = test::runBinary("rules PROJ001", ws.path());
  EXPECT_NE(one.out.find("Use instead"), std::string::npos);
  EXPECT_EQ(test::runBinary("rules NOPE001", ws.path()).exit_code, 2);
}

}  // namespace
}  // namespace portcheck
