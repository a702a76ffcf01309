// port-check ledger's outputs: the text table, the Markdown table for PORTING.md and the JSON document.
#include <gtest/gtest.h>

#include "ledger/ledger_view.h"
#include "ledger_test_support.h"

namespace portcheck::ledger {
namespace {

using test::attempt;
using test::change;
using test::finding;
using test::golden;

LedgerHistory story() {
  LedgerHistory h;
  Attempt first = attempt(1, {finding("DSL111", 12, "rows", "row of 1424 bytes")}, std::nullopt);
  first.golden = std::nullopt;
  first.command = "check";
  first.stages = {{"lint", "ran", ""}, {"compile", "skipped", "no toolchain"}};
  first.sram = {{"rows_incore_0", "Vec", 180000, std::nullopt, 188416}};
  Attempt second = attempt(2, {}, std::vector{change({{12, 1, 12, 1}}, {"rows"}, {"rows_incore_0"})}, golden("failed", 0.5));
  second.sram = {{"rows_incore_0", "Vec", 131072, 131072, 188416}};
  Attempt third = attempt(3, {}, std::vector{change({{22, 1, 22, 1}}, {"rows"}, {"rows_incore_0"})}, golden("passed", 0.0));
  third.sram = second.sram;
  h.attempts = {first, second, third};
  return h;
}

TEST(LedgerView, CellsSayChangeResultGoldenAndSramTrend) {
  LedgerHistory h = story();
  EXPECT_EQ(resultCell(h.attempts[0]), "check, exit 1: 1 error (DSL111); compile skipped");
  EXPECT_EQ(resultCell(h.attempts[1]), "check --run, exit 0: clean");
  EXPECT_EQ(goldenCell(h.attempts[0]), "not run");
  EXPECT_EQ(goldenCell(h.attempts[1]), "failed GOLD001: 100/1024 out of tolerance, max abs err 0.5");
  EXPECT_EQ(goldenCell(h.attempts[2]), "passed (a2a3sim)");
  EXPECT_EQ(sramCell(h.attempts[0], nullptr), "Vec 95.5% est rows_incore_0");
  EXPECT_EQ(sramCell(h.attempts[1], &h.attempts[0]), "Vec 69.6% actual rows_incore_0 (-26.0)");
  EXPECT_EQ(sramCell(h.attempts[2], &h.attempts[1]), "Vec 69.6% actual rows_incore_0 (=)");
}

TEST(LedgerView, TextIsOneAlignedRowPerAttempt) {
  LedgerHistory h = story();
  std::string text = ledgerText(buildLedgerView(h, "projects/p", {}, std::nullopt));
  EXPECT_NE(text.find("Attempt ledger of projects/p (projects/p/.port-check/ledger.jsonl)"), std::string::npos) << text;
  EXPECT_NE(text.find("#  when (UTC)        change             result                                            golden"), std::string::npos) << text;
  EXPECT_NE(text.find("  1  2026-11-25 09:01  first attempt"), std::string::npos) << text;
  EXPECT_NE(text.find("  3  2026-11-25 09:03  incore.py line 22  check --run, exit 0: clean                        passed (a2a3sim)"), std::string::npos)
      << text;
}

TEST(LedgerView, LastShowsTheNewestAttemptsAndSaysHowManyAreLeftOut) {
  LedgerHistory h = story();  // the view points into the history: it must outlive the view
  LedgerView view = buildLedgerView(h, "projects/p", {}, 1);
  ASSERT_EQ(view.rows.size(), 1u);
  EXPECT_EQ(view.rows[0].attempt->number, 3);
  EXPECT_NE(ledgerText(view).find("2 earlier attempts not shown (--last)"), std::string::npos);
}

TEST(LedgerView, MarkdownIsATableToPasteIntoPorting) {
  LedgerHistory h = story();
  h.attempts.push_back(attempt(4, {}, std::vector{change({{22, 1, 22, 1}}, {"rows"}, {"rows_incore_0"})}, golden("failed", 0.25)));
  std::string md = ledgerMarkdown(buildLedgerView(h, "projects/p", {}, std::nullopt));
  EXPECT_EQ(md.rfind("| # | When (UTC) | Change | port-check result | Golden | SRAM | Loop |\n|---|---|---|---|---|---|---|\n", 0), 0u)
      << md;
  EXPECT_NE(md.find("| 3 | 2026-11-25 09:03 | incore.py line 22 | check --run, exit 0: clean | passed (a2a3sim) | "
                    "Vec 69.6% actual rows_incore_0 (=) | - |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 4 | 2026-11-25 09:04 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| LOOP004 |"), std::string::npos) << md;
  EXPECT_NE(md.find("- **LOOP004** the golden passed in attempt 3 and fails now"), std::string::npos) << md;
}

TEST(LedgerView, JsonHoldsEachRecordWithItsCellsAndLoopFindings) {
  LedgerHistory h = story();
  h.attempts.push_back(attempt(4, {}, std::vector{change({{22, 1, 22, 1}}, {"rows"}, {"rows_incore_0"})}, golden("failed", 0.25)));
  FoldedSummary folded;
  folded.fold(attempt(0, {}, std::nullopt, golden("passed", 0.0)));
  h.summary = folded;
  nlohmann::json j = ledgerJson(buildLedgerView(h, "projects/p", {}, std::nullopt), "");
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["project"], "projects/p");
  EXPECT_EQ(j["folded"]["attempts"], 1);
  ASSERT_EQ(j["attempts"].size(), 4u);
  EXPECT_EQ(j["attempts"][0]["changes"], nullptr);
  EXPECT_EQ(j["attempts"][1]["golden"]["status"], "failed");
  EXPECT_EQ(j["attempts"][1]["changes"][0]["file"], "projects/p/pypto_src/incore.py");
  EXPECT_EQ(j["attempts"][2]["cells"]["golden"], "passed (a2a3sim)");
  EXPECT_EQ(j["attempts"][3]["loop"][0]["rule"], "LOOP004");
  EXPECT_EQ(j["attempts"][3]["loop"][0]["source"], "ledger");
  ASSERT_EQ(j["diagnostics"].size(), 1u);
  EXPECT_EQ(j["diagnostics"][0]["rule"], "LOOP004");
}

TEST(LedgerView, AnEmptyLedgerSaysHowToStartOne) {
  std::string text = ledgerText(buildLedgerView({}, "projects/p", {}, std::nullopt));
  EXPECT_NE(text.find("no attempts recorded yet: `port-check check projects/p` records one"), std::string::npos) << text;
}

TEST(LedgerView, AFailedOrCancelledCompileIsNeverClean) {
  // A cancelled compile: TOOL006, a tool error, exit 2.
  Attempt cancelled = attempt(1, {finding("TOOL006", 0, "", "the compile was cancelled", Severity::Error, Stage::Tool, "")},
                              std::nullopt);
  cancelled.command = "compile";
  cancelled.exit_code = 2;
  cancelled.stages = {{"compile", "ran", ""}};
  EXPECT_EQ(resultCell(cancelled), "compile, exit 2: 1 error (TOOL006)");
  // No toolchain: COMP909, the compile stage failed.
  Attempt impossible = attempt(2, {finding("COMP909", 0, "", "cannot compile", Severity::Error, Stage::Tool, "")});
  impossible.command = "compile";
  impossible.exit_code = 2;
  impossible.stages = {{"compile", "failed", "no PyPTO toolchain"}};
  EXPECT_EQ(resultCell(impossible), "compile, exit 2: 1 error (COMP909); compile failed");
  // Exit 2 with nothing recorded that says why is still not clean.
  Attempt unexplained = attempt(3);
  unexplained.exit_code = 2;
  EXPECT_EQ(resultCell(unexplained), "check --run, exit 2: not checked (port-check could not do its job)");
}

TEST(LedgerView, RepeatsAndAToolchainChangeAreSaid) {
  Attempt a = attempt(2, {}, std::vector<FileChange>{});
  a.toolchain_changed = true;
  a.repeats = 2;
  EXPECT_EQ(describeChange(a), "toolchain changed");
  EXPECT_EQ(resultCell(a), "check --run, exit 0: clean; re-run 2 times");
  a.changes = std::vector{change({{7, 1, 7, 1}})};
  EXPECT_EQ(describeChange(a), "toolchain changed; incore.py line 7");
  Attempt skeleton = attempt(1, {}, std::nullopt);
  skeleton.command = "new";
  skeleton.scaffold = true;
  EXPECT_EQ(describeChange(skeleton), "port-check new");
  EXPECT_EQ(resultCell(skeleton), "new: the skeleton as written, not checked yet");
}

}  // namespace
}  // namespace portcheck::ledger
