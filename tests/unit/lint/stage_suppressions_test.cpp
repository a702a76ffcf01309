// `# port-check: ignore[ID]` silences findings of every stage, not only lint's: a compiler performance
// hint, a runtime finding, an error located in a generated file whose note points at the user's line.
#include <gtest/gtest.h>

#include "lint/stage_suppressions.h"
#include "rules/catalogue.h"
#include "test_support.h"

namespace portcheck {
namespace {

Diagnostic at(const std::string& rule, const std::string& file, int line, Stage source) {
  Diagnostic d = makeDiagnostic(rule, file, line, 1, "finding");
  d.source = source;
  return d;
}

TEST(StageSuppressions, ACommentSilencesCompilerAndRuntimeFindingsOnItsLineAndTheNext) {
  test::TempDir ws;
  ws.write("projects/p/pypto_src/incore.py",
           "import pypto.language as pl\n"
           "# port-check: ignore[PERF001]\n"
           "x = pl.load(a, [0, 0], [32, 32])\n"
           "y = pl.load(b, [0, 0], [32, 32])  # port-check: ignore[PERF001, GOLD001]\n"
           "z = 1\n"
           "w = 2\n");
  const std::string file = "projects/p/pypto_src/incore.py";
  std::vector<Diagnostic> ds = {at("PERF001", file, 3, Stage::Compiler),   // the line below the comment
                                at("PERF001", file, 4, Stage::Compiler),   // the comment's own line
                                at("GOLD001", file, 4, Stage::Golden),
                                at("PERF001", file, 6, Stage::Compiler),   // two lines below: not covered
                                at("COMP002", file, 3, Stage::Compiler),   // another rule
                                at("TOOL003", "", 0, Stage::Tool)};
  applyInlineSuppressions(ds, ws.path());
  ASSERT_EQ(ds.size(), 3u);
  EXPECT_EQ(ds[0].rule + ":" + std::to_string(ds[0].line), "PERF001:6");
  EXPECT_EQ(ds[1].rule, "COMP002");
  EXPECT_EQ(ds[2].rule, "TOOL003");
}

TEST(StageSuppressions, AFindingInAGeneratedFileIsSilencedAtItsNoteInTheSource) {
  test::TempDir ws;
  ws.write("projects/p/pypto_src/incore.py", "a = 1\nb = a + 1  # port-check: ignore[COMP007]\n");
  Diagnostic d = at("COMP007", ".port-check-cache/results/x/kernels/aiv/k.pto", 40, Stage::Compiler);
  d.notes.push_back({"projects/p/pypto_src/incore.py", 2, 1, "the op comes from here"});
  Diagnostic kept = d;
  kept.notes[0].line = 1;
  std::vector<Diagnostic> ds = {d, kept};
  applyInlineSuppressions(ds, ws.path());
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].notes[0].line, 1);
}

// End to end through the binary, with the stand-in compiler reporting PH001 at incore.py line 3.
TEST(StageSuppressions, TheSuggestedCommentSilencesACompilerHintAlsoWithoutTheCache) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("pypto/python/pypto/__init__.py", "");
  ws.write("projects/p/pypto_src/FAKE_MODE", "perf_hint\n");
  ws.write("projects/p/pypto_src/golden.py", "x = 1\n");
  const std::string args = "compile --format json --no-ledger --pypto '" + (ws / "pypto").string() + "' --python '" +
                           test::fakeCompilePython() + "' projects/p";
  ws.write("projects/p/pypto_src/incore.py", "a = 1\nb = 2\nc = 3\n");
  auto before = test::runBinary(args, ws.path());
  ASSERT_NE(before.out.find("\"PERF001\""), std::string::npos) << before.out;
  ws.write("projects/p/pypto_src/incore.py", "a = 1\n# port-check: ignore[PERF001]\nc = 3\n");
  for (const char* cache : {"", " --no-cache"}) {
    auto after = test::runBinary(args + cache, ws.path());
    EXPECT_EQ(after.out.find("\"PERF001\""), std::string::npos) << cache << "\n" << after.out;
  }
  ws.write("projects/p/pypto_src/incore.py", "a = 1\nb = 2\nc = 3  # port-check: ignore[PERF001]\n");
  auto same_line = test::runBinary(args + " --no-cache", ws.path());
  EXPECT_EQ(same_line.out.find("\"PERF001\""), std::string::npos) << same_line.out;
}

}  // namespace
}  // namespace portcheck
