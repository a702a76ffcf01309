// Every compiler-derived rule fires on a real recorded compile that shows its problem (or, where no
// recording exists, on output built from the documented format) and stays silent on a clean one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <algorithm>

#include "compile_fixture_support.h"
#include "compiler/compile_record.h"
#include "rules/catalogue.h"

namespace portcheck {
namespace {

std::vector<std::string> rulesOf(const CompileAnalysis& a) {
  std::vector<std::string> ids;
  for (const Diagnostic& d : a.diagnostics) ids.push_back(d.rule);
  return ids;
}

bool fires(const CompileAnalysis& a, const std::string& rule) {
  auto ids = rulesOf(a);
  return std::find(ids.begin(), ids.end(), rule) != ids.end();
}

struct RuleCase {
  std::string rule;
  std::string bad_case;  // fixture where it must fire
};

class CompilerRuleOnFixture : public ::testing::TestWithParam<RuleCase> {};

TEST_P(CompilerRuleOnFixture, FiresOnTheBadCompileAndNotOnTheCleanOne) {
  const RuleCase& rc = GetParam();
  CompileAnalysis bad = analyzeCompile(test::fixtureRecord(rc.bad_case), Platform::A2A3);
  EXPECT_TRUE(fires(bad, rc.rule)) << rc.rule << " on " << rc.bad_case;
  CompileAnalysis good = analyzeCompile(test::fixtureRecord("01-vec-elementwise"), Platform::A2A3);
  EXPECT_FALSE(fires(good, rc.rule));
  EXPECT_TRUE(good.diagnostics.empty());
  EXPECT_TRUE(good.succeeded);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, CompilerRuleOnFixture,
    ::testing::Values(RuleCase{"COMP001", "16-parse-python-range"}, RuleCase{"COMP002", "08-vec-oom-one-tile"},
                      RuleCase{"COMP003", "23-verifier-oom"}, RuleCase{"COMP004", "24-dsa-rp-oom"},
                      RuleCase{"COMP005", "12-left-oom-autotile"}, RuleCase{"COMP007", "19-ptoas-dtype-mismatch"},
                      RuleCase{"COMP008", "20-ptoas-missing-program"}, RuleCase{"COMP009", "18-misplaced-tile-op"},
                      RuleCase{"COMP010", "26-dsa-rp-internal-program"}, RuleCase{"COMP012", "09-vec-oom-live-tiles"},
                      RuleCase{"COMP013", "30-ptoas-silent-stop-mixed-nosplit"},
                      RuleCase{"PERF001", "03-matmul-program"}, RuleCase{"MEM102", "07-vec-low-usage"}),
    [](const ::testing::TestParamInfo<RuleCase>& info) { return info.param.rule; });

// COMP006: a pypto-side codegen CHECK (the documented OutParamWriteDropped example, §4.8).
TEST(CompilerRules, CodegenFailureWithASpanIsReportedAtTheUsersLine) {
  test::TempDir dir;
  dir.write("program.py", "import pypto.language as pl\n");
  CompileRecord r;
  r.project = "p";
  r.source_root = dir.path();
  r.source_root_display = "projects/p/pypto_src";
  r.exit_code = 1;
  r.path_map = {{"<file-dir>/", "projects/p/pypto_src/"}};
  r.log =
      "Failed to compile function 'test_ssa_violation_incore_0': tile.store tile valid_shape must be 2D "
      "[<file-dir>/program.py:23:5]\n"
      "Check failed: valid_shape.size() == 2 at <pypto>/src/backend/common/pto_ops_memory.cpp:169\n"
      "Traceback (most recent call last):\n"
      "  File \"<file-dir>/program.py\", line 30, in <module>\n"
      "pypto.backend.pto_backend.PartialCodegenError: 1 function(s) failed to compile:\n"
      "\n"
      "  Function                     | Error\n"
      "  -----------------------------+----------------------------------------\n"
      "  test_ssa_violation_incore_0  | tile.store tile valid_shape must be 2D\n"
      "                               | [<file-dir>/program.py:23:5]\n"
      "  -----------------------------+----------------------------------------\n";
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_EQ(a.errors[0].rule, "COMP006");
  EXPECT_EQ(a.errors[0].message, "tile.store tile valid_shape must be 2D");
  EXPECT_EQ(a.errors[0].location.file, "projects/p/pypto_src/program.py");
  EXPECT_EQ(a.errors[0].location.line, 23);
  ASSERT_TRUE(a.errors[0].check_failed);
  EXPECT_EQ(a.errors[0].check_failed->line, 169);
  ASSERT_TRUE(fires(a, "COMP006"));
  EXPECT_EQ(a.diagnostics[0].message,
            "Failed to compile function 'test_ssa_violation_incore_0': tile.store tile valid_shape must be 2D");
}

// COMP013: ptoas died without a message on a mixed group; the finding is short, at the scope, with the cause.
TEST(CompilerRules, APtoasThatStopsSilentlyIsNamedWithItsLastPassAndTheSplitNote) {
  CompileAnalysis a = analyzeCompile(test::fixtureRecord("30-ptoas-silent-stop-mixed-nosplit"), Platform::A2A3);
  ASSERT_TRUE(fires(a, "COMP013"));
  EXPECT_FALSE(fires(a, "COMP007")) << "not the ptoas-rejected finding quoting the whole trace";
  const Diagnostic* d = nullptr;
  for (const Diagnostic& x : a.diagnostics)
    if (x.rule == "COMP013") d = &x;
  ASSERT_NE(d, nullptr);
  EXPECT_LT(d->message.size(), 300u) << d->message;
  EXPECT_NE(d->message.find("PTOToEmitC"), std::string::npos) << d->message;
  EXPECT_EQ(d->file, "projects/30-ptoas-silent-stop-mixed-nosplit/pypto_src/program.py");
  EXPECT_EQ(d->line, 25) << "the pl.at scope of the group";
  ASSERT_FALSE(d->notes.empty());
  EXPECT_NE(d->notes.back().message.find("pl.split(pl.SplitMode.UP_DOWN)"), std::string::npos);
}

TEST(CompilerRules, APtoasErrorLineIsNeverASilentStop) {
  // The same debug trace with an error line in it is ptoas rejecting the code (COMP007).
  CompileRecord r = test::fixtureRecord("30-ptoas-silent-stop-mixed-nosplit");
  const std::string marker = "DEBUG: Start PTOToEmitC Pass";
  for (std::string* text : {&r.log}) {
    const std::size_t at = text->find(marker);
    ASSERT_NE(at, std::string::npos);
    text->insert(at, "loc(\"x.pto\":3:1): error: custom op 'pto.x' is unknown\n");
  }
  std::error_code ec;
  const std::filesystem::path copy = std::filesystem::temp_directory_path() / "portcheck-comp013-copy";
  std::filesystem::remove_all(copy, ec);
  std::filesystem::copy(r.out_dir, copy, std::filesystem::copy_options::recursive, ec);
  ASSERT_FALSE(ec) << ec.message();
  r.out_dir = copy;
  const std::filesystem::path report = copy / "report" / "codegen_errors.txt";
  std::string text = test::readFile(report);
  const std::size_t at = text.find(marker);
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "loc(\"x.pto\":3:1): error: custom op 'pto.x' is unknown\n");
  std::ofstream(report, std::ios::trunc) << text;
  CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
  std::filesystem::remove_all(copy, ec);
  EXPECT_TRUE(fires(a, "COMP007"));
  EXPECT_FALSE(fires(a, "COMP013"));
}

TEST(CompilerRules, EveryCompilerRuleIsCatalogued) {
  for (const char* id : {"COMP001", "COMP002", "COMP003", "COMP004", "COMP005", "COMP006", "COMP007", "COMP008",
                         "COMP009", "COMP010", "COMP011", "COMP012", "COMP013", "PERF001", "MEM101", "MEM102"}) {
    const RuleInfo* r = Catalogue::builtin().find(id);
    ASSERT_NE(r, nullptr) << id;
    EXPECT_EQ(r->source, Stage::Compiler) << id;
  }
  EXPECT_EQ(Catalogue::builtin().find("MEM102")->severity, Severity::Info);
  EXPECT_EQ(Catalogue::builtin().find("COMP012")->severity, Severity::Warning);
}

}  // namespace
}  // namespace portcheck
