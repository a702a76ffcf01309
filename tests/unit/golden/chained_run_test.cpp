// A port's simulator run chained to its compile in one process (ChainedRun, docs/run-stage.md "One
// process"): the log split at the adapter's marker, how the process ended going to the run, and
// through the binary with the stand-in interpreter (tests/fixtures/run/fake-run-python.sh), which
// logs every interpreter start in projects/<name>/starts.log.
#include <gtest/gtest.h>

#include <chrono>

#include "compiler/compile_driver.h"
#include "golden/run_analysis.h"
#include "golden/run_driver.h"
#include "golden/run_workspace.h"
#include "test_support.h"

namespace portcheck::chained_run_test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

ProcessResult ended(std::string output, int exit_code, bool timed_out = false, int signal = 0) {
  ProcessResult p;
  p.started = true;
  p.output = std::move(output);
  p.exit_code = exit_code;
  p.timed_out = timed_out;
  p.signal = signal;
  p.seconds = 10.0;
  return p;
}

TEST(ChainedRunSplit, TheLogAfterTheMarkerAndTheWayTheProcessEndedAreTheRuns) {
  ProcessResult p = ended("compiling\npasses done\n[port-check] run phase after 4.000 s\n[sim] task 1\nFAIL\n", 1);
  std::optional<ChainedRunProcess> run = splitChainedRun(p.output, p);
  ASSERT_TRUE(run);
  EXPECT_EQ(p.output, "compiling\npasses done\n");
  EXPECT_EQ(run->log, "[sim] task 1\nFAIL\n");
  EXPECT_EQ(run->exit_code, 1);
  EXPECT_DOUBLE_EQ(run->seconds, 6.0);
}

TEST(ChainedRunSplit, ATimeoutOrSignalAfterTheMarkerIsTheRuns) {
  ProcessResult p = ended("[port-check] run phase after 1.5 s\n[sim] BLOCKED\n", -1, true, 9);
  std::optional<ChainedRunProcess> run = splitChainedRun(p.output, p);
  ASSERT_TRUE(run);
  EXPECT_TRUE(run->timed_out);
  EXPECT_EQ(run->signal, 9);
  EXPECT_EQ(p.output, "");
}

TEST(ChainedRunSplit, NoMarkerAtALineStartMeansTheProcessNeverReachedTheRun) {
  ProcessResult none = ended("compiling\nerror: TileView\n", 1);
  EXPECT_FALSE(splitChainedRun(none.output, none));
  EXPECT_EQ(none.output, "compiling\nerror: TileView\n");
  ProcessResult quoted = ended("print('[port-check] run phase after 1 s')\n", 0);
  EXPECT_FALSE(splitChainedRun(quoted.output, quoted)) << "the marker quoted inside a line is not the marker";
}

TEST(ChainedRunDriver, OnlyPortsChainAndTheRunFoldersAreGiven) {
  test::RunWorkspace w;
  w.settings.chained_run = ChainedRun{w.settings.environment, 1500ms};
  CompileTarget port = w.project("softmax", "pass");
  DriverOutcome o = runCompileProcess(port, Platform::A2A3, w.settings);
  ASSERT_TRUE(o.chained_run) << o.record.log;
  EXPECT_FALSE(has(o.record.log, "run phase")) << o.record.log;
  EXPECT_EQ(o.record.exit_code, 0);
  EXPECT_TRUE(o.cacheable);
  RunRecord rec = chainedRunRecord(port, Platform::A2A3, w.settings, *o.chained_run);
  EXPECT_TRUE(rec.result.present) << rec.result_error;
  EXPECT_EQ(analyzeRun(rec).run.status, "passed");

  // A program file's __main__ decides what it compiles: it is run in a process of its own.
  w.ws.write("lib/softmax.py", "import pypto.language as pl\n");
  w.ws.write("lib/FAKE_RUN", "pass\n");
  CompileTarget file = port;
  file.name = "softmax_file";
  file.program_file = w.ws / "lib/softmax.py";
  file.source_root = w.ws / "lib";
  DriverOutcome alone = runCompileProcess(file, Platform::A2A3, w.settings);
  EXPECT_FALSE(alone.chained_run) << alone.record.log;
  EXPECT_EQ(test::readFile(w.ws / "starts.log"), "compile\n");  // lib/../starts.log: the file's compile alone
}

TEST(ChainedRunDriver, ARunThatHangsIsTheRunsTimeoutNotTheCompiles) {
  test::RunWorkspace w(1s);
  w.settings.chained_run = ChainedRun{w.settings.environment, 1s};
  CompileTarget port = w.project("hang", "timeout");
  auto start = std::chrono::steady_clock::now();
  DriverOutcome o = runCompileProcess(port, Platform::A2A3, w.settings);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 8s);
  ASSERT_TRUE(o.chained_run) << o.record.log;
  EXPECT_TRUE(o.chained_run->timed_out);
  EXPECT_FALSE(o.record.timed_out);
  EXPECT_TRUE(o.cacheable) << "the compile finished; only the run was killed";
  for (const Diagnostic& d : o.diagnostics) EXPECT_NE(d.rule, "COMP901") << d.message;
  RunAnalysis a = analyzeRun(chainedRunRecord(port, Platform::A2A3, w.settings, *o.chained_run));
  ASSERT_FALSE(a.diagnostics.empty());
  EXPECT_EQ(a.diagnostics[0].rule, "GOLD013") << a.diagnostics[0].message;
}

// The binary on projects/softmax; the stand-in logs each interpreter start in projects/softmax/starts.log.
struct Cli : test::CliWorkspace {
  std::string run(const std::string& extra = "") {
    return test::runBinary("run --format json " + extra + " " + args() + "projects/softmax", ws.path()).out;
  }
  std::string starts() { return test::readFile(ws / "projects/softmax/starts.log"); }
};

TEST(ChainedRunCommand, AFreshCompileRunsThePortInTheSameProcess) {
  Cli c;
  c.project("softmax", "wrong_axis");
  std::string out = c.run();
  EXPECT_TRUE(has(out, "\"rule\": \"GOLD001\"")) << out;
  EXPECT_EQ(c.starts(), "compile\n") << "one interpreter start for compile and run";
  // The compile replays from the cache; the failed run is not cached, so it runs in a process of its own.
  out = c.run();
  EXPECT_TRUE(has(out, "\"rule\": \"GOLD001\"")) << out;
  EXPECT_EQ(c.starts(), "compile\nrun\n");
}

TEST(ChainedRunCommand, APassedChainedRunIsReplayedNextTime) {
  Cli c;
  c.project("softmax", "pass");
  std::string first = c.run();
  EXPECT_TRUE(has(first, "\"status\": \"passed\"")) << first;
  std::string second = c.run();
  EXPECT_TRUE(has(second, "\"replayed\": true")) << second;
  EXPECT_EQ(c.starts(), "compile\n");
}

TEST(ChainedRunCommand, WhatDoesNotCompileIsNotRun) {
  Cli c;
  c.project("softmax", "pass");
  c.ws.write("projects/softmax/pypto_src/FAKE_COMPILE_FAIL", "");
  std::string out = c.run("--no-cache");
  EXPECT_TRUE(has(out, "compile-failed")) << out;
  EXPECT_EQ(c.starts(), "compile\n");
}

TEST(ChainedRunCommand, ChainedRunsGoOneAtATimeUnlessJobsSaysOtherwise) {
  // Each run sleeps 1 s: two ports take 2 s or more one at a time, less with --jobs 2.
  Cli c;
  c.project("alpha", "pass");
  c.project("beta", "pass");
  auto timed = [&](const std::string& jobs) {
    auto start = std::chrono::steady_clock::now();
    auto r = test::runShell("cd '" + c.ws.path().string() + "' && FAKE_RUN_SLEEP=1 " + PORTCHECK_BINARY +
                            " run --no-cache " + jobs + " " + c.args() + "projects/alpha projects/beta 2>/dev/null");
    EXPECT_EQ(r.exit_code, 0) << r.out;
    return std::chrono::steady_clock::now() - start;
  };
  EXPECT_GE(timed(""), 2s);
  EXPECT_LT(timed("--jobs 2"), 1900ms);
}

}  // namespace
}  // namespace portcheck::chained_run_test
