// The ledger file: records round-trip, appends are whole lines, bad lines are skipped and said, two
// processes appending at once never interleave, and the file stays bounded.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "core/file_lock.h"
#include "ledger/attempt_json.h"
#include "ledger/ledger_file.h"
#include "ledger_test_support.h"
#include "test_support.h"

namespace portcheck::ledger {
namespace {

namespace fs = std::filesystem;

Attempt rich() {
  Attempt a = test::attempt(3, {test::finding("MEM001", 14, "rows", "Vec 240000 of 188416 bytes")},
                            std::vector<FileChange>{test::change({{14, 1, 14, 2}}, {"rows"}, {"rows_incore_0"})},
                            test::golden("failed", 0.25));
  a.library_hash = std::string(40, 'd');
  a.sram = {{"rows_incore_0", "Vec", 240000, std::nullopt, 188416}, {"rows_incore_0", "Mat", std::nullopt, 1024, 524288}};
  a.golden->outputs[0].rtol = 1e-5;
  a.golden->outputs[0].atol = 0.0;
  return a;
}

TEST(LedgerFile, AnAttemptRecordRoundTripsThroughItsJsonLine) {
  Attempt a = rich();
  std::string line = recordLine(attemptToJson(a));
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one record is one line";
  ParsedRecord r = parseRecord(line.substr(0, line.size() - 1));
  ASSERT_TRUE(r.attempt) << r.error;
  EXPECT_EQ(attemptToJson(*r.attempt), attemptToJson(a));
  EXPECT_EQ(r.attempt->changes->front().hunks.front(), (Hunk{14, 1, 14, 2}));
  EXPECT_EQ(r.attempt->golden->maxAbsErr(), 0.25);
  EXPECT_EQ(r.attempt->golden->outputs[0].rtol, 1e-5);
  EXPECT_EQ(r.attempt->golden->outputs[0].atol, 0.0);
  // A record written before tolerances were kept reads back without them.
  nlohmann::json old = attemptToJson(a);
  old["golden"]["outputs"][0].erase("rtol");
  old["golden"]["outputs"][0].erase("atol");
  r = parseRecord(old.dump());
  ASSERT_TRUE(r.attempt) << r.error;
  EXPECT_FALSE(r.attempt->golden->outputs[0].rtol);
  EXPECT_FALSE(r.attempt->golden->outputs[0].atol);
}

TEST(LedgerFile, TheFirstAttemptHasNoChangesRatherThanNone) {
  Attempt first = test::attempt(1, {}, std::nullopt);
  ParsedRecord r = parseRecord(recordLine(attemptToJson(first)));
  ASSERT_TRUE(r.attempt) << r.error;
  EXPECT_FALSE(r.attempt->changes.has_value());
  Attempt same = test::attempt(2);
  r = parseRecord(recordLine(attemptToJson(same)));
  ASSERT_TRUE(r.attempt && r.attempt->changes);
  EXPECT_TRUE(r.attempt->changes->empty());
}

TEST(LedgerFile, AppendedRecordsReadBackInOrder) {
  portcheck::test::TempDir dir;
  fs::path file = dir / "ledger.jsonl";
  std::string error;
  for (int i = 1; i <= 3; ++i) ASSERT_TRUE(appendLine(file, recordLine(attemptToJson(test::attempt(i))), error)) << error;
  LedgerRead read = readLedger(file, error);
  EXPECT_TRUE(error.empty());
  ASSERT_EQ(read.history.attempts.size(), 3u);
  EXPECT_EQ(read.history.attempts[2].number, 3);
  EXPECT_EQ(read.history.nextNumber(), 4);
  EXPECT_TRUE(read.skipped.empty());
}

TEST(LedgerFile, ACorruptLineIsSkippedAndReportedNotFatal) {
  std::string text = recordLine(attemptToJson(test::attempt(1))) + "{\"kind\": \"attempt\", \"sch\n" +
                     "not json at all\n" + "{\"kind\":\"attempt\",\"schema\":99}\n" +
                     recordLine(attemptToJson(test::attempt(2)));
  LedgerRead read = parseLedger(text);
  ASSERT_EQ(read.history.attempts.size(), 2u);
  EXPECT_EQ(read.history.attempts[1].number, 2);
  ASSERT_EQ(read.skipped.size(), 3u);
  EXPECT_EQ(read.skipped[0].line, 2);
  EXPECT_EQ(read.skipped[2].line, 4);
  EXPECT_NE(read.skipped[2].why.find("schema 99"), std::string::npos) << read.skipped[2].why;
  std::vector<Diagnostic> warnings = skippedLineWarnings("projects/p", read.skipped);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0].rule, "TOOL007");
  EXPECT_EQ(warnings[0].severity, Severity::Warning);
  EXPECT_EQ(warnings[0].file, "projects/p/.port-check/ledger.jsonl");
  EXPECT_EQ(warnings[0].line, 2);
}

TEST(LedgerFile, AnAttemptOutOfOrderIsSkipped) {
  LedgerRead read = parseLedger(recordLine(attemptToJson(test::attempt(2))) + recordLine(attemptToJson(test::attempt(1))));
  ASSERT_EQ(read.history.attempts.size(), 1u);
  ASSERT_EQ(read.skipped.size(), 1u);
  EXPECT_NE(read.skipped[0].why.find("out of order"), std::string::npos);
}

TEST(LedgerFile, AnAppendAfterALineCutOffStartsOnANewLine) {
  portcheck::test::TempDir dir;
  fs::path file = dir.write("ledger.jsonl", recordLine(attemptToJson(test::attempt(1))) + "{\"kind\":\"att");
  std::string error;
  ASSERT_TRUE(appendLine(file, recordLine(attemptToJson(test::attempt(2))), error)) << error;
  LedgerRead read = readLedger(file, error);
  ASSERT_EQ(read.history.attempts.size(), 2u);
  ASSERT_EQ(read.skipped.size(), 1u);
  EXPECT_EQ(read.skipped[0].line, 2);
}

TEST(LedgerFile, AnUnreadableLedgerIsAnError) {
  portcheck::test::TempDir dir;
  fs::create_directories(dir / "ledger.jsonl");  // a folder where the file should be
  std::string error;
  readLedger(dir / "ledger.jsonl", error);
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(appendLine(dir / "ledger.jsonl", "x\n", error));
}

TEST(LedgerFile, TwoProcessesAppendingAtOnceNeverInterleave) {
  portcheck::test::TempDir dir;
  const fs::path file = dir / "ledger.jsonl", lock = dir / "ledger.lock";
  constexpr int kPerProcess = 40;
  // Long records (about 20 KB), so an unlocked, unbuffered writer would be cut and interleaved.
  auto big = [](int number, char fill) {
    Attempt a = test::attempt(number);
    a.findings.push_back(test::finding("DSL104", 3, "rows", std::string(20000, fill)));
    return recordLine(attemptToJson(a));
  };
  std::vector<pid_t> children;
  for (char fill : {'x', 'y'}) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int failures = 0;
      for (int i = 0; i < kPerProcess; ++i) {
        FileLock held(lock);
        std::string error;
        // Read the next number under the lock, as the recorder does: numbers must come out unique.
        int next = readLedger(file, error).history.nextNumber();
        if (!held.held() || !appendLine(file, big(next, fill), error)) ++failures;
      }
      _exit(failures == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::string error;
  LedgerRead read = readLedger(file, error);
  EXPECT_TRUE(read.skipped.empty()) << read.skipped.size() << " lines unreadable, first: " << read.skipped[0].why;
  ASSERT_EQ(read.history.attempts.size(), 2u * kPerProcess);
  std::set<char> fills;
  for (std::size_t i = 0; i < read.history.attempts.size(); ++i) {
    const Attempt& a = read.history.attempts[i];
    EXPECT_EQ(a.number, static_cast<int>(i) + 1);
    const std::string& m = a.findings.back().message;
    ASSERT_EQ(m.size(), 20000u);
    EXPECT_EQ(m.find_first_not_of(m[0]), std::string::npos) << "record " << a.number << " mixes two writers";
    fills.insert(m[0]);
  }
  EXPECT_EQ(fills.size(), 2u);
}

TEST(LedgerFile, PastTheBoundTheOldestAttemptsFoldIntoOneSummary) {
  portcheck::test::TempDir dir;
  fs::path file = dir / "ledger.jsonl";
  std::string error;
  LedgerHistory history;
  for (int i = 1; i <= 7; ++i) {
    Attempt a = test::attempt(i, i == 2 ? std::vector<Finding>{test::finding("DSL104", 3, "rows", "m")}
                                        : std::vector<Finding>{},
                              std::vector<FileChange>{},
                              i == 3 ? std::optional(test::golden("passed", 0.0))
                                     : std::optional(test::golden("failed", 0.5 - 0.01 * i)));
    ASSERT_TRUE(appendLine(file, recordLine(attemptToJson(a)), error));
    history.attempts.push_back(a);
    ASSERT_TRUE(foldOldAttempts(file, history, 3, error)) << error;
  }
  LedgerRead read = readLedger(file, error);
  ASSERT_TRUE(read.history.summary);
  ASSERT_EQ(read.history.attempts.size(), 3u);
  EXPECT_EQ(read.history.attempts.front().number, 5);
  const FoldedSummary& s = *read.history.summary;
  EXPECT_EQ(s.attempts, 4);
  EXPECT_EQ(s.first_attempt, 1);
  EXPECT_EQ(s.last_attempt, 4);
  EXPECT_EQ(s.golden_passed, 1);
  EXPECT_EQ(s.golden_failed, 3);
  EXPECT_EQ(s.last_golden_pass, 3);
  EXPECT_EQ(s.best_max_abs_err, 0.0);
  EXPECT_EQ(s.rules.at("DSL104"), 1);
  EXPECT_EQ(read.history.nextNumber(), 8);
  // The summary is the file's first line, and the file holds nothing else but the kept attempts.
  std::string text = portcheck::test::readFile(file);
  EXPECT_EQ(text.rfind("{\"attempts\":4", 0), 0u) << text.substr(0, 80);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
}

TEST(LedgerFile, TheLedgerFolderHidesItselfFromGit) {
  portcheck::test::TempDir dir;
  std::string error;
  ASSERT_TRUE(prepareLedgerDir(dir / "p" / ".port-check", error)) << error;
  EXPECT_EQ(portcheck::test::readFile(dir / "p" / ".port-check" / ".gitignore"), "*\n");
}

}  // namespace
}  // namespace portcheck::ledger
