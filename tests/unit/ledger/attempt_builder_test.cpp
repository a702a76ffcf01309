// Which findings of a run an attempt records: every one that is the project's, also those located in
// a generated file under the compile cache; not those of another project checked in the same run.
#include <gtest/gtest.h>

#include "ledger/attempt_builder.h"
#include "rules/catalogue.h"
#include "test_support.h"

namespace portcheck::ledger {
namespace {

namespace fs = std::filesystem;

struct TwoProjects {
  test::TempDir dir;
  Workspace ws;
  Targets targets;
  TwoProjects() {
    dir.write(".git/HEAD", "ref: refs/heads/main\n");
    for (const char* p : {"projects/a/pypto_src/incore.py", "projects/b/pypto_src/incore.py"}) dir.write(p, "x = 1\n");
    ws.root = fs::canonical(dir.path());
    targets = collectTargets(ws, ws.root, {"projects/a", "projects/b"});
  }
  Attempt attemptOf(std::size_t i, const Report& report) const {
    const Project& p = targets.projects.at(i);
    const Project& other = targets.projects.at(1 - i);
    ProjectSources sources = readProjectSources(ws, p);
    RunContext run{"compile", "2026-11-25T09:30:00Z", "none", "", {ws.relative(other.dir)},
                   {ws.relative(other.pypto_src / "incore.py")}};
    return attemptFromReport(report, ws, p, sources, {}, run);
  }
};

std::vector<std::string> rules(const Attempt& a) {
  std::vector<std::string> out;
  for (const Finding& f : a.findings) out.push_back(f.rule);
  return out;
}

TEST(AttemptBuilder, AnErrorInAGeneratedFileUnderTheCacheIsRecorded) {
  TwoProjects t;
  Report report;
  // ptoas rejected the generated .pto of project a; the note points at a's source line.
  Diagnostic ptoas = makeDiagnostic("COMP007", ".port-check-cache/results/ab/out/kernels/aiv/k.pto", 12, 3,
                                    "'pto.tadd' op operands have different element types");
  ptoas.notes.push_back({"projects/a/pypto_src/incore.py", 1, 1, "from here"});
  // The same kind of error with no note at all: no project claims the file, so it counts for each.
  Diagnostic bare = makeDiagnostic("COMP007", ".port-check-cache/results/cd/out/kernels/aiv/k.pto", 5, 1, "rejected");
  Diagnostic in_b = makeDiagnostic("DSL111", "projects/b/pypto_src/incore.py", 1, 1, "row of 400 bytes");
  report.diagnostics = {ptoas, bare, in_b};
  Attempt a = t.attemptOf(0, report);
  EXPECT_EQ(rules(a), (std::vector<std::string>{"COMP007", "COMP007"}));
  Attempt b = t.attemptOf(1, report);
  EXPECT_EQ(rules(b), (std::vector<std::string>{"COMP007", "DSL111"}));  // the bare one and its own
}

TEST(AttemptBuilder, TheToleranceOfEachComparedOutputIsRecorded) {
  TwoProjects t;
  Report report;
  GoldenRun g;
  g.project = "a";
  g.platform = "a2a3sim";
  g.status = "passed";
  GoldenOutput out;
  out.name = "out";
  out.passed = true;
  out.verdict = "pass";
  out.rtol = 1e-5;
  out.atol = 1e-6;
  out.tolerance_source = "TOLERANCES";
  g.outputs.push_back(out);
  GoldenOutput bare;  // a result without tolerance figures
  bare.name = "scale";
  g.outputs.push_back(bare);
  report.golden.push_back(g);
  Attempt a = t.attemptOf(0, report);
  ASSERT_TRUE(a.golden);
  ASSERT_EQ(a.golden->outputs.size(), 2u);
  EXPECT_EQ(a.golden->outputs[0].rtol, 1e-5);
  EXPECT_EQ(a.golden->outputs[0].atol, 1e-6);
  EXPECT_FALSE(a.golden->outputs[1].rtol);
  EXPECT_FALSE(a.golden->outputs[1].atol);
}

}  // namespace
}  // namespace portcheck::ledger
