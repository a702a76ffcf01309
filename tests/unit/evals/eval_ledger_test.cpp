// What `eval` reads of an attempt's ledger: written through the ledger module, so a bounded ledger whose
// oldest attempts were folded into a summary record still counts them, and its time span starts at the
// first attempt ever made; the rules reported are those of the newest attempt.
#include <gtest/gtest.h>

#include "evals/eval_score.h"
#include "ledger/ledger_file.h"
#include "test_support.h"

namespace portcheck::eval_ledger_test {
namespace {

ledger::Attempt attemptAt(int number, const std::string& time, const std::string& rule) {
  ledger::Attempt a;
  a.number = number;
  a.time = time;
  a.command = "check";
  a.project = "projects/rope_rotate";
  if (!rule.empty()) a.findings.push_back({rule});
  return a;
}

TEST(EvalLedger, FoldedAttemptsStillCountAndTheSpanStartsAtTheFirst) {
  test::TempDir dir;
  ledger::LedgerHistory h;
  ledger::FoldedSummary folded;
  folded.project = "projects/rope_rotate";
  folded.attempts = 5;
  folded.first_attempt = 1;
  folded.last_attempt = 5;
  folded.first_time = "2026-11-28T10:00:00Z";
  folded.last_time = "2026-11-28T10:10:00Z";
  folded.rules["DSL123"] = 2;
  h.summary = folded;
  h.attempts.push_back(attemptAt(6, "2026-11-28T10:20:00Z", "PERF001"));
  h.attempts.push_back(attemptAt(7, "2026-11-28T10:30:00Z", "FUSE005"));
  std::string error;
  const ledger::LedgerPaths paths = ledger::ledgerPaths(dir.path());
  ASSERT_TRUE(ledger::prepareLedgerDir(paths.dir, error)) << error;
  ASSERT_TRUE(ledger::rewriteLedger(paths.ledger, h, error)) << error;

  std::optional<evals::LedgerSummary> s = evals::readAttemptLedger(dir.path());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->attempts, 7);
  EXPECT_DOUBLE_EQ(s->minutes, 30.0);
  EXPECT_EQ(s->rules, std::vector<std::string>{"FUSE005"});
}

TEST(EvalLedger, OnlyASummaryGivesItsRules) {
  test::TempDir dir;
  ledger::LedgerHistory h;
  ledger::FoldedSummary folded;
  folded.attempts = 3;
  folded.first_attempt = 1;
  folded.last_attempt = 3;
  folded.first_time = "2026-11-28T10:00:00Z";
  folded.last_time = "2026-11-28T10:06:00Z";
  folded.rules["LOOP003"] = 1;
  h.summary = folded;
  std::string error;
  const ledger::LedgerPaths paths = ledger::ledgerPaths(dir.path());
  ASSERT_TRUE(ledger::prepareLedgerDir(paths.dir, error)) << error;
  ASSERT_TRUE(ledger::rewriteLedger(paths.ledger, h, error)) << error;

  std::optional<evals::LedgerSummary> s = evals::readAttemptLedger(dir.path());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->attempts, 3);
  EXPECT_DOUBLE_EQ(s->minutes, 6.0);
  EXPECT_EQ(s->rules, std::vector<std::string>{"LOOP003"});
}

TEST(EvalLedger, NoLedgerOrAnEmptyOneIsNone) {
  test::TempDir dir;
  EXPECT_FALSE(evals::readAttemptLedger(dir.path()).has_value());
  dir.write(".port-check/ledger.jsonl", "not a record\n");
  EXPECT_FALSE(evals::readAttemptLedger(dir.path()).has_value());
}

}  // namespace
}  // namespace portcheck::eval_ledger_test
