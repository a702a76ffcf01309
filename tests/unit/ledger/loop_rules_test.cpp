// The LOOP family, each rule with a bad history (it reports) and a good one (it does not).
#include <gtest/gtest.h>

#include "ledger/ledger_file.h"
#include "ledger/loop_check.h"
#include "ledger_test_support.h"
#include "test_support.h"

namespace portcheck::ledger {
namespace {

using test::attempt;
using test::change;
using test::finding;
using test::golden;

std::vector<Diagnostic> run(const std::vector<Attempt>& history, const FoldedSummary* folded = nullptr,
                            LoopSettings settings = {}) {
  std::span<const Attempt> earlier(history.data(), history.size() - 1);
  return runLoopChecks({earlier, folded, history.back(), settings});
}

std::vector<Diagnostic> of(const std::vector<Diagnostic>& ds, const std::string& rule) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : ds)
    if (d.rule == rule) out.push_back(d);
  return out;
}

bool says(const Diagnostic& d, const std::string& text) { return d.message.find(text) != std::string::npos; }

// ---- LOOP001

TEST(Loop001, AFindingTwoEditsOfItsFunctionDidNotRemoveIsReported) {
  // Attempts 2 and 3 edit `rows`; MEM001 stays, its line and figures moving.
  std::vector<Attempt> h = {
      attempt(1, {finding("MEM001", 14, "rows", "Vec 240000 of 188416 bytes")}, std::nullopt),
      attempt(2, {finding("MEM001", 15, "rows", "Vec 200000 of 188416 bytes")}, std::vector{change({{14, 1, 14, 2}}, {"rows"})}),
      attempt(3, {finding("MEM001", 15, "rows", "Vec 190000 of 188416 bytes")}, std::vector{change({{15, 1, 15, 1}}, {"rows"})}),
  };
  auto ds = of(run(h), "LOOP001");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].severity, Severity::Warning);
  EXPECT_EQ(ds[0].source, Stage::Ledger);
  EXPECT_EQ(ds[0].line, 15);
  EXPECT_TRUE(says(ds[0], "MEM001 in 'rows' is still reported after 2 attempts")) << ds[0].message;
  EXPECT_TRUE(says(ds[0], "attempts 2 and 3; first reported in attempt 1")) << ds[0].message;
}

TEST(Loop001, EditsElsewhereOrAFixedFindingAreNotReported) {
  // The edits were in another function: the finding was not worked on.
  std::vector<Attempt> elsewhere = {
      attempt(1, {finding("MEM001", 14, "rows", "Vec 240000 of 188416 bytes")}, std::nullopt),
      attempt(2, {finding("MEM001", 14, "rows", "Vec 240000 of 188416 bytes")}, std::vector{change({{40, 1, 40, 1}}, {"helper"})}),
      attempt(3, {finding("MEM001", 14, "rows", "Vec 240000 of 188416 bytes")}, std::vector{change({{41, 1, 41, 1}}, {"helper"})}),
  };
  EXPECT_TRUE(of(run(elsewhere), "LOOP001").empty());
  // Gone for one attempt in between: the count starts again.
  std::vector<Attempt> interrupted = {
      attempt(1, {finding("DSL104", 9, "rows", "load of 'x'")}, std::nullopt),
      attempt(2, {}, std::vector{change({{9, 1, 9, 1}}, {"rows"})}),
      attempt(3, {finding("DSL104", 9, "rows", "load of 'x'")}, std::vector{change({{9, 1, 9, 1}}, {"rows"})}),
  };
  EXPECT_TRUE(of(run(interrupted), "LOOP001").empty());
}

// ---- LOOP002

std::vector<Attempt> goldenRuns(const std::vector<std::pair<std::string, double>>& runs) {
  std::vector<Attempt> h;
  for (std::size_t i = 0; i < runs.size(); ++i)
    h.push_back(attempt(static_cast<int>(i) + 1, {}, std::vector<FileChange>{}, golden(runs[i].first, runs[i].second)));
  return h;
}

TEST(Loop002, EightRunsWithoutAPassOrABetterErrorAreReported) {
  auto h = goldenRuns({{"failed", 0.41}, {"failed", 0.39}, {"failed", 0.52}, {"failed", 0.41}, {"failed", 0.40},
                       {"failed", 0.44}, {"failed", 0.41}, {"failed", 0.40}, {"failed", 0.45}});
  // Attempts that did not run the golden do not count.
  h.insert(h.begin() + 3, attempt(100, {}, std::vector<FileChange>{}, std::nullopt));
  for (std::size_t i = 0; i < h.size(); ++i) h[i].number = static_cast<int>(i) + 1;
  auto ds = of(run(h), "LOOP002");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(says(ds[0], "the golden has not passed in the last 8 attempts that ran it (attempts 2 to 10)"))
      << ds[0].message;
  EXPECT_TRUE(says(ds[0], "never went below 0.39 (attempt 2)")) << ds[0].message;
  EXPECT_EQ(ds[0].file, "projects/p/pypto_src/golden.py");
}

TEST(Loop002, ANewBestErrorOrAPassIsProgress) {
  auto improving = goldenRuns({{"failed", 0.41}, {"failed", 0.39}, {"failed", 0.52}, {"failed", 0.41},
                               {"failed", 0.40}, {"failed", 0.44}, {"failed", 0.41}, {"failed", 0.2}});
  EXPECT_TRUE(of(run(improving), "LOOP002").empty());
  auto passed = goldenRuns({{"failed", 0.4}, {"failed", 0.4}, {"passed", 0.0}, {"failed", 0.4}, {"failed", 0.4},
                            {"failed", 0.4}, {"failed", 0.4}, {"failed", 0.4}});
  EXPECT_TRUE(of(run(passed), "LOOP002").empty());
  auto few = goldenRuns({{"failed", 0.4}, {"failed", 0.4}, {"failed", 0.4}});
  EXPECT_TRUE(of(run(few), "LOOP002").empty());
}

// ---- LOOP003

TEST(Loop003, AnAttemptChangingTwoKernelsOrManyPlacesIsReported) {
  std::vector<Attempt> two_kernels = {
      attempt(1, {}, std::nullopt),
      attempt(2, {}, std::vector{change({{14, 1, 14, 1}, {40, 3, 40, 3}}, {"rows"}, {"rows_incore_0", "matmul_tile"})}),
  };
  auto ds = of(run(two_kernels), "LOOP003");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(says(ds[0], "attempt 2 changed 2 incore kernels at once (rows_incore_0, matmul_tile)")) << ds[0].message;
  EXPECT_TRUE(says(ds[0], "incore.py lines 14, 40-42")) << ds[0].message;
  EXPECT_EQ(ds[0].line, 14);

  std::vector<Hunk> many;
  for (int i = 0; i < 7; ++i) many.push_back({10 * i + 1, 1, 10 * i + 1, 1});
  std::vector<Attempt> scattered = {attempt(1, {}, std::nullopt), attempt(2, {}, std::vector{change(many)})};
  ds = of(run(scattered), "LOOP003");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(says(ds[0], "changed 7 separate places in 1 file (more than 6)")) << ds[0].message;
}

TEST(Loop003, OneChangeInOneKernelOrTheFirstAttemptIsNotReported) {
  std::vector<Attempt> one = {
      attempt(1, {}, std::nullopt),
      attempt(2, {}, std::vector{change({{14, 1, 14, 1}, {16, 1, 16, 1}}, {"rows"}, {"rows_incore_0"})}),
  };
  EXPECT_TRUE(of(run(one), "LOOP003").empty());
  std::vector<Attempt> first = {attempt(1, {}, std::nullopt)};
  EXPECT_TRUE(of(run(first), "LOOP003").empty());
  LoopSettings lenient;
  lenient.max_hunks = 10;
  std::vector<Hunk> many;
  for (int i = 0; i < 7; ++i) many.push_back({10 * i + 1, 1, 10 * i + 1, 1});
  std::vector<Attempt> scattered = {attempt(1, {}, std::nullopt), attempt(2, {}, std::vector{change(many)})};
  EXPECT_TRUE(of(run(scattered, nullptr, lenient), "LOOP003").empty());
}

// ---- LOOP004

TEST(Loop004, AGoldenThatPassedAndFailsNowNamesTheAttemptThatBrokeIt) {
  std::vector<Attempt> h = {
      attempt(1, {}, std::nullopt, golden("failed", 0.5)),
      attempt(2, {}, std::vector{change({{9, 1, 9, 1}}, {"rows"})}, golden("passed", 0.0)),
      attempt(3, {}, std::vector{change({{22, 1, 22, 1}}, {"rows"})}, golden("failed", 0.3)),
      attempt(4, {}, std::vector{change({{30, 1, 30, 1}}, {"rows"})}),  // no run: neutral
      attempt(5, {}, std::vector{change({{31, 1, 31, 1}}, {"rows"})}, golden("failed", 0.3)),
  };
  auto ds = of(run(h), "LOOP004");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(says(ds[0], "the golden passed in attempt 2 and fails since attempt 3 (its change: incore.py line 22)"))
      << ds[0].message;
}

TEST(Loop004, AnErrorInCodeThatWasCleanNamesTheCleanAttempt) {
  std::vector<Attempt> h = {
      attempt(1, {}, std::nullopt),
      attempt(2, {finding("DSL111", 12, "rows", "row of 1424 bytes")}, std::vector{change({{12, 1, 12, 1}}, {"rows"})}),
      attempt(3, {finding("DSL111", 13, "rows", "row of 1400 bytes")}, std::vector{change({{1, 0, 2, 1}})}),
  };
  auto ds = of(run(h), "LOOP004");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(says(ds[0], "DSL111 in 'rows' was not reported in attempt 1 and is since attempt 2 (its change: incore.py line 12)"))
      << ds[0].message;
  EXPECT_EQ(ds[0].line, 13);
}

TEST(Loop004, NewCodeAStageThatDidNotRunOrAPassingGoldenIsNoRegression) {
  // The function is new in attempt 2: its first error is not a regression.
  Attempt before = attempt(1, {}, std::nullopt);
  before.functions = {"helper"};
  std::vector<Attempt> fresh = {before, attempt(2, {finding("DSL111", 12, "rows", "row")}, std::vector{change({{10, 0, 10, 5}}, {"rows"})})};
  EXPECT_TRUE(of(run(fresh), "LOOP004").empty());
  // A compile finding, and the attempt before ran no compile (a lint-only check): nothing to compare.
  Attempt lint_only = attempt(1, {}, std::nullopt);
  lint_only.stages = {{"lint", "ran", ""}, {"compile", "skipped", "no toolchain"}};
  std::vector<Attempt> skipped = {lint_only, attempt(2, {finding("COMP002", 12, "rows", "Vec overflow", Severity::Error, Stage::Compiler)})};
  EXPECT_TRUE(of(run(skipped), "LOOP004").empty());
  // The golden passes again.
  std::vector<Attempt> fine = {attempt(1, {}, std::nullopt, golden("passed", 0.0)), attempt(2, {}, std::vector<FileChange>{}, golden("passed", 0.0))};
  EXPECT_TRUE(of(run(fine), "LOOP004").empty());
}

TEST(Loop004, APassFoldedOutOfTheLedgerStillCounts) {
  FoldedSummary folded;
  folded.attempts = 10;
  folded.first_attempt = 1;
  folded.last_attempt = 10;
  folded.last_golden_pass = 9;
  std::vector<Attempt> h = {attempt(11, {}, std::nullopt, golden("failed", 0.2))};
  auto ds = of(run(h, &folded), "LOOP004");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(says(ds[0], "passed in attempt 9 and fails now")) << ds[0].message;
}

// ---- LOOP005

GoldenOutcome goldenWithTolerance(const std::string& status, double rtol, double atol) {
  GoldenOutcome g = golden(status, status == "passed" ? 0.0 : 0.3);
  g.outputs[0].rtol = rtol;
  g.outputs[0].atol = atol;
  return g;
}

TEST(Loop005, AToleranceLooserThanInTheLastPassingAttemptIsReported) {
  std::vector<Attempt> h = {
      attempt(1, {}, std::nullopt, goldenWithTolerance("passed", 1e-5, 1e-6)),
      attempt(2, {}, std::vector{change({{31, 1, 31, 1}}, {"rows"})}, goldenWithTolerance("passed", 1e-5, 1e-6)),
      attempt(3, {}, std::vector{change({{33, 1, 33, 1}}, {"rows"})}, goldenWithTolerance("failed", 1e-5, 1e-6)),
      attempt(4, {}, std::vector{change({{20, 1, 20, 1}}, {}, {}, "projects/p/pypto_src/golden.py")},
              goldenWithTolerance("passed", 1e-5, 1e-3)),
  };
  auto ds = of(run(h), "LOOP005");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].severity, Severity::Warning);
  EXPECT_EQ(ds[0].source, Stage::Ledger);
  EXPECT_EQ(ds[0].file, "projects/p/pypto_src/golden.py");
  EXPECT_TRUE(says(ds[0], "the tolerance of output 'out' is rtol 1e-05, atol 0.001 in attempt 4, looser than rtol "
                          "1e-05, atol 1e-06 in attempt 2, whose golden passed (its change: incore.py line 31)"))
      << ds[0].message;
  EXPECT_TRUE(says(ds[0], "the golden now passes with a wider check")) << ds[0].message;
  // A failing run with a widened tolerance is reported too.
  h.back().golden = goldenWithTolerance("failed", 1e-2, 1e-6);
  ds = of(run(h), "LOOP005");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(says(ds[0], "rtol 0.01, atol 1e-06 in attempt 4")) << ds[0].message;
}

TEST(Loop005, AnEqualOrTighterToleranceNoPassBeforeOrUnrecordedTolerancesAreNotReported) {
  std::vector<Attempt> tighter = {
      attempt(1, {}, std::nullopt, goldenWithTolerance("passed", 1e-4, 1e-5)),
      attempt(2, {}, std::vector{change({{9, 1, 9, 1}}, {"rows"})}, goldenWithTolerance("passed", 1e-5, 1e-5)),
  };
  EXPECT_TRUE(of(run(tighter), "LOOP005").empty());
  // Never passed: nothing to compare with.
  std::vector<Attempt> never = {
      attempt(1, {}, std::nullopt, goldenWithTolerance("failed", 1e-5, 1e-6)),
      attempt(2, {}, std::vector{change({{9, 1, 9, 1}}, {"rows"})}, goldenWithTolerance("failed", 1e-2, 1e-2)),
  };
  EXPECT_TRUE(of(run(never), "LOOP005").empty());
  // The passing attempt predates the recording of tolerances.
  std::vector<Attempt> unrecorded = {
      attempt(1, {}, std::nullopt, golden("passed", 0.0)),
      attempt(2, {}, std::vector{change({{9, 1, 9, 1}}, {"rows"})}, goldenWithTolerance("passed", 1e-2, 1e-2)),
  };
  EXPECT_TRUE(of(run(unrecorded), "LOOP005").empty());
  // No golden run now.
  std::vector<Attempt> no_run = {attempt(1, {}, std::nullopt, goldenWithTolerance("passed", 1e-5, 1e-6)),
                                 attempt(2, {}, std::vector{change({{9, 1, 9, 1}}, {"rows"})})};
  EXPECT_TRUE(of(run(no_run), "LOOP005").empty());
}

// A ledger recorded by port-check (tests/fixtures/ledger/*.jsonl), read back and checked as `port-check ledger`
// checks its newest attempt.
std::vector<Diagnostic> checkRecordedLedger(const std::string& name) {
  LedgerRead read = parseLedger(::portcheck::test::readFile(std::string(::portcheck::test::fixturesDir()) + "/ledger/" + name));
  EXPECT_TRUE(read.skipped.empty()) << name << ": line " << (read.skipped.empty() ? 0 : read.skipped[0].line) << " "
                                    << (read.skipped.empty() ? "" : read.skipped[0].why);
  const std::vector<Attempt>& h = read.history.attempts;
  EXPECT_EQ(h.size(), 4u);
  if (h.empty()) return {};
  return run(h, read.history.summary ? &*read.history.summary : nullptr);
}

TEST(Loop005, ARecordedLedgerWhoseToleranceWasWidenedAfterAPass) {
  auto ds = of(checkRecordedLedger("tolerance_loosened.jsonl"), "LOOP005");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(says(ds[0], "output 'out' is rtol 0.01, atol 0.001 in attempt 4, looser than rtol 1e-05, atol 1e-06 in "
                          "attempt 2"))
      << ds[0].message;
  EXPECT_EQ(ds[0].file, "projects/rows/pypto_src/golden.py");
  EXPECT_TRUE(of(checkRecordedLedger("tolerance_kept.jsonl"), "LOOP005").empty());
}

TEST(LoopSettings, ThresholdsComeFromTheConfigOptions) {
  Config c;
  c.options["loop.max_hunks"] = "12";
  c.options["loop.attempts_per_finding"] = "3";
  c.options["loop.attempts_without_progress"] = "nonsense";
  LoopSettings s = loopSettings(c);
  EXPECT_EQ(s.max_hunks, 12);
  EXPECT_EQ(s.attempts_per_finding, 3);
  EXPECT_EQ(s.attempts_without_progress, 8);
}

}  // namespace
}  // namespace portcheck::ledger
