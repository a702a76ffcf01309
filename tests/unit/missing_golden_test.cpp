// PROJ001 end to end: a project without golden.py is reported in every format; a complete one is clean.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace portcheck {
namespace {

class MissingGolden : public ::testing::Test {
 protected:
  void SetUp() override {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");  // marks the workspace root
    ws.write("projects/bad/pypto_src/incore.py", "import pypto.language as pl\n");
    ws.write("projects/good/pypto_src/golden.py",
             "RTOL = 1e-5\nCONTRACT = {\"kind\": \"other\", \"seeds\": 3, \"cases\": {\"base\": {\"category\": \"base\"}}}\n");
  }
  test::CommandResult lint(Format f, std::vector<std::string> paths) {
    auto o = test::optionsIn(ws.path(), f);
    return test::runInProcess([&](const Io& io) { return runLint(o, paths, io); });
  }
  test::TempDir ws;
};

TEST_F(MissingGolden, ReportedAsErrorWithExitStatusOne) {
  auto r = lint(Format::Text, {"projects/bad"});
  EXPECT_EQ(r.exit_code, kExitFindings);
  EXPECT_NE(r.out.find("projects/bad/pypto_src: error: project 'bad' has no pypto_src/golden.py [PROJ001]"),
            std::string::npos)
      << r.out;
}

TEST_F(MissingGolden, CompleteProjectIsClean) {
  auto r = lint(Format::Text, {"projects/good"});
  EXPECT_EQ(r.exit_code, kExitClean) << r.out;
  EXPECT_EQ(r.out, "0 errors, 0 warnings, 0 info in 1 file\n");
}

TEST_F(MissingGolden, ProjectWithoutPyptoSrcIsReported) {
  ws.write("projects/empty/README.md", "nothing yet\n");
  auto r = lint(Format::Text, {"projects/empty"});
  EXPECT_EQ(r.exit_code, kExitFindings);
  EXPECT_NE(r.out.find("projects/empty: error: project 'empty' has no pypto_src/ folder"), std::string::npos) << r.out;
}

TEST_F(MissingGolden, ProjectsFolderExpandsToEveryProject) {
  auto r = lint(Format::Json, {"projects"});
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["diagnostics"].size(), 1u);
  EXPECT_EQ(j["diagnostics"][0]["file"], "projects/bad/pypto_src");
}

TEST_F(MissingGolden, ReportedInEveryFormat) {
  EXPECT_NE(lint(Format::Json, {"projects/bad"}).out.find("\"rule\": \"PROJ001\""), std::string::npos);
  EXPECT_NE(lint(Format::Sarif, {"projects/bad"}).out.find("\"ruleId\": \"PROJ001\""), std::string::npos);
  EXPECT_NE(lint(Format::Junit, {"projects/bad"}).out.find("type=\"PROJ001\""), std::string::npos);
  EXPECT_NE(lint(Format::Github, {"projects/bad"}).out.find("::error file=projects/bad/pypto_src,title=port-check PROJ001::"),
            std::string::npos);
  for (Format f : {Format::Text, Format::Json, Format::Sarif, Format::Junit, Format::Github})
    EXPECT_EQ(lint(f, {"projects/bad"}).exit_code, kExitFindings) << toString(f);
}

TEST_F(MissingGolden, FailOnNeverStillReportsButExitsZero) {
  auto o = test::optionsIn(ws.path());
  o.fail_on = FailOn::Never;
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"projects/bad"}, io); });
  EXPECT_EQ(r.exit_code, kExitClean);
  EXPECT_NE(r.out.find("[PROJ001]"), std::string::npos);
}

TEST_F(MissingGolden, ConfigCanTurnTheRuleOff) {
  ws.write("port-check.json", R"({"rules": {"PROJ001": "off"}})");
  auto r = lint(Format::Text, {"projects/bad"});
  EXPECT_EQ(r.exit_code, kExitClean) << r.out;
}

TEST_F(MissingGolden, OutputFileIsWritten) {
  auto o = test::optionsIn(ws.path(), Format::Sarif);
  o.output = "report.sarif";
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"projects/bad"}, io); });
  EXPECT_EQ(r.exit_code, kExitFindings);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(test::readFile(ws / "report.sarif").find("PROJ001"), std::string::npos);
}

TEST_F(MissingGolden, UnwritableOutputIsAToolError) {
  auto o = test::optionsIn(ws.path());
  o.output = "no/such/dir/report.txt";
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"projects/bad"}, io); });
  EXPECT_EQ(r.exit_code, kExitToolError);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos);
}

}  // namespace
}  // namespace portcheck
