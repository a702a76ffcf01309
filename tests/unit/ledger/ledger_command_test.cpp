// End to end: check records an attempt per project (the toolchain is absent, so lint only, and the
// record says so), a second check after a one-line fix records what changed, and `port-check ledger`
// prints the story as text, JSON and Markdown. Also: --no-ledger, a corrupt line, concurrent checks.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "golden/run_workspace.h"
#include "ledger/attempt_json.h"
#include "ledger_workspace.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

using test::LedgerWorkspace;

TEST(LedgerCommand, TwoChecksAndTheLedgerTellTheStory) {
  LedgerWorkspace ws;
  auto first = ws.check();
  EXPECT_EQ(first.exit_code, 1) << first.out;  // DSL111
  ASSERT_TRUE(fs::exists(ws.ledgerFile()));
  ws.fix();
  auto second = ws.check();
  EXPECT_EQ(second.exit_code, 0) << second.out;

  auto text = ws.ledger();
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Attempt ledger of projects/rows (projects/rows/.port-check/ledger.jsonl)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("first attempt"), std::string::npos) << text.out;
  // The fixture's golden.py declares no CONTRACT: PROJ002 in both attempts.
  EXPECT_NE(text.out.find("check, exit 1: 2 errors (DSL111), 1 warning (PROJ002); compile skipped"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("incore.py line 7"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("check, exit 0: 1 warning (PROJ002); compile skipped"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Vec 34.8% est scale_add_rows (+21.2)"), std::string::npos) << text.out;

  auto json = ws.ledger(Format::Json);
  nlohmann::json j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["attempts"].size(), 2u);
  const nlohmann::json& a1 = j["attempts"][0];
  const nlohmann::json& a2 = j["attempts"][1];
  EXPECT_EQ(a1["attempt"], 1);
  EXPECT_EQ(a1["command"], "check");
  EXPECT_EQ(a1["exit_code"], 1);
  EXPECT_EQ(a1["changes"], nullptr);
  EXPECT_EQ(a1["golden"], nullptr);
  // What ran: lint; the compile stage skipped, and why.
  ASSERT_GE(a1["stages"].size(), 2u);
  EXPECT_EQ(a1["stages"][0]["name"], "lint");
  EXPECT_EQ(a1["stages"][0]["state"], "ran");
  bool compile_skipped = false;
  for (const auto& s : a1["stages"]) compile_skipped |= s["name"] == "compile" && s["state"] == "skipped";
  EXPECT_TRUE(compile_skipped) << a1["stages"].dump();
  EXPECT_EQ(a1["hash"]["pypto_src"].get<std::string>().size(), 40u);
  EXPECT_NE(a1["hash"]["pypto_src"], a2["hash"]["pypto_src"]);
  EXPECT_EQ(a1["hash"]["pypto_lib"], nullptr);
  int dsl111 = 0;
  for (const auto& f : a1["findings"])
    if (f["rule"] == "DSL111") {
      ++dsl111;
      EXPECT_EQ(f["function"], "scale_add_rows");
    }
  EXPECT_EQ(dsl111, 2);
  EXPECT_EQ(a1["sram"][0]["kernel"], "scale_add_rows");
  EXPECT_EQ(a1["sram"][0]["estimate"], 25600);
  EXPECT_EQ(a1["sram"][0]["actual"], nullptr);
  ASSERT_EQ(a2["changes"].size(), 1u);
  EXPECT_EQ(a2["changes"][0]["file"], "projects/rows/pypto_src/incore.py");
  EXPECT_EQ(a2["changes"][0]["hunks"][0], (nlohmann::json{{"old_start", 7}, {"old_lines", 1}, {"new_start", 7}, {"new_lines", 1}}));
  EXPECT_EQ(a2["exit_code"], 0);
  EXPECT_TRUE(j["diagnostics"].empty()) << j["diagnostics"].dump();

  auto md = ws.ledger(Format::Text, /*markdown=*/true);
  EXPECT_EQ(md.out.rfind("| # | When (UTC) | Change | port-check result | Golden | SRAM | Loop |", 0), 0u) << md.out;
  EXPECT_NE(md.out.find("| 2 | "), std::string::npos) << md.out;
}

TEST(LedgerCommand, ALoopFindingShowsInTheCheckThatRaisedIt) {
  LedgerWorkspace ws;
  ws.fix();
  EXPECT_EQ(ws.check().exit_code, 0);
  // Break the fixed code again: DSL111 in scale_add_rows, which attempt 1 had clean.
  fs::copy_file(test::fixturesDir() + "/ledger/rows/pypto_src/incore.py", ws.dir / "projects/rows/pypto_src/incore.py",
                fs::copy_options::overwrite_existing);
  auto r = ws.check(Format::Json);
  nlohmann::json j = nlohmann::json::parse(r.out);
  int loop004 = 0;
  for (const auto& d : j["diagnostics"])
    if (d["rule"] == "LOOP004") {
      ++loop004;
      EXPECT_EQ(d["severity"], "warning");
      EXPECT_EQ(d["source"], "ledger");
      EXPECT_NE(d["message"].get<std::string>().find("DSL111 in 'scale_add_rows' was not reported in attempt 1"),
                std::string::npos)
          << d.dump();
    }
  EXPECT_EQ(loop004, 1) << j["diagnostics"].dump();
  EXPECT_EQ(r.exit_code, 1);  // the DSL111 errors; the warning alone would not fail
}

TEST(LedgerCommand, RunsRecordTheGoldenVerdictAndABrokenGoldenIsARegression) {
  // The run stage against the stand-in compiler and runtime (tests/fixtures/run/fake-run-python.sh),
  // which answers with the recorded result FAKE_RUN names.
  test::CliWorkspace c;
  c.project("softmax", "wrong_axis");
  auto attempt = [&](const std::string& fake_run, const std::string& golden_comment) {
    c.ws.write("projects/softmax/pypto_src/FAKE_RUN", fake_run + "\n");
    c.ws.write("projects/softmax/pypto_src/golden.py", "x = 1\n" + golden_comment);
    return test::runBinary("run --format json " + c.args() + "projects/softmax", c.ws.path());
  };
  EXPECT_EQ(attempt("wrong_axis", "").exit_code, 1);
  EXPECT_EQ(attempt("pass", "# the reduction axis fixed\n").exit_code, 0);
  auto third = attempt("wrong_axis", "# broken again\n");
  EXPECT_NE(third.out.find("the golden passed in attempt 2 and fails now (its change: golden.py line 2)"),
            std::string::npos)
      << third.out;

  nlohmann::json j = nlohmann::json::parse(test::runBinary("ledger --format json projects/softmax", c.ws.path()).out);
  ASSERT_EQ(j["attempts"].size(), 3u);
  const nlohmann::json& failed = j["attempts"][0];
  EXPECT_EQ(failed["command"], "run");
  EXPECT_EQ(failed["golden"]["status"], "failed");
  EXPECT_EQ(failed["golden"]["rule"], "GOLD001");
  EXPECT_EQ(failed["golden"]["outputs"][0]["mismatches"], 23878);
  EXPECT_TRUE(failed["golden"]["max_abs_err"].is_number());
  EXPECT_EQ(j["attempts"][1]["golden"]["status"], "passed");
  EXPECT_EQ(j["attempts"][1]["cells"]["golden"], "passed (a2a3sim)");
  EXPECT_EQ(j["attempts"][2]["loop"][0]["rule"], "LOOP004");
  EXPECT_EQ(j["diagnostics"][0]["rule"], "LOOP004");
}

TEST(LedgerCommand, NoLedgerRecordsNothing) {
  LedgerWorkspace ws;
  CompileOptions c;
  c.no_ledger = true;
  ws.check(Format::Text, c);
  EXPECT_FALSE(fs::exists(ws.dir / "projects/rows/.port-check"));
  auto r = ws.ledger();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("no attempts recorded yet"), std::string::npos) << r.out;
}

TEST(LedgerCommand, ACorruptLineIsAWarningAndTheRestIsShown) {
  LedgerWorkspace ws;
  ws.check();
  { std::ofstream(ws.ledgerFile(), std::ios::app) << "garbage\n"; }
  ws.fix();
  auto c = ws.check();
  EXPECT_EQ(c.exit_code, 0) << c.out;
  EXPECT_NE(c.out.find("ledger line 2 is not a record and was skipped: not a JSON object [TOOL007]"), std::string::npos)
      << c.out;
  auto r = ws.ledger();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("projects/rows/.port-check/ledger.jsonl:2: warning: ledger line 2 is not a record"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  2  "), std::string::npos) << r.out;
}

TEST(LedgerCommand, RefusesWhatIsNotOneProjectAndReportFormats) {
  LedgerWorkspace ws;
  LedgerOptions lo;
  lo.project = "projects/nope";
  auto r = test::runInProcess([&](const Io& io) { return runLedger(ws.options(), lo, io); });
  EXPECT_EQ(r.exit_code, 2);
  lo.project = "projects/rows";
  r = test::runInProcess([&](const Io& io) { return runLedger(ws.options(Format::Sarif), lo, io); });
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("ledger prints text, --format json or --markdown"), std::string::npos);
}

TEST(LedgerCommand, ConcurrentChecksNumberEveryAttemptOnce) {
  LedgerWorkspace ws;
  // A long ledger takes a while to read, which widens the window between reading the last number and
  // appending the next one: without the lock, two checks would take the same number.
  constexpr int kSeeded = 150;
  {
    fs::create_directories(ws.ledgerFile().parent_path());
    std::ofstream out(ws.ledgerFile(), std::ios::binary);
    for (int i = 1; i <= kSeeded; ++i) {
      ledger::Attempt a;
      a.number = i;
      a.time = "2026-11-25T09:00:00Z";
      a.command = "check";
      a.project = "projects/rows";
      a.source_hash = std::string(40, '0');
      a.findings.push_back({"DSL111", Severity::Error, Stage::Lint, "projects/rows/pypto_src/incore.py", 18,
                            "scale_add_rows", std::string(10000, 'x')});
      out << ledger::recordLine(ledger::attemptToJson(a));
    }
  }
  std::string one = "env -u PYPTO_ROOT '" + std::string(PORTCHECK_BINARY) +
                    "' check --no-kernel-compile --pypto no-pypto projects/rows > /dev/null 2>&1";
  std::string loop = "for i in 1 2 3; do " + one + "; done";
  std::string both = "cd '" + ws.dir.path().string() + "' && { (" + loop + ") & (" + loop + ") & wait; }";
  ASSERT_EQ(std::system(("sh -c \"" + both + "\"").c_str()), 0);
  auto r = test::runBinary("ledger --format json projects/rows", ws.dir.path());
  nlohmann::json j = nlohmann::json::parse(r.out);
  // Six checks of the same sources: one new attempt and five repeats of it, every line readable.
  ASSERT_EQ(j["attempts"].size(), kSeeded + 1u);
  for (std::size_t i = 0; i < kSeeded + 1u; ++i) EXPECT_EQ(j["attempts"][i]["attempt"], static_cast<int>(i) + 1);
  EXPECT_EQ(j["attempts"][kSeeded]["repeats"], 5);
  EXPECT_TRUE(j["diagnostics"].empty()) << j["diagnostics"].dump();
}

}  // namespace
}  // namespace portcheck
