// The run driver and stage against a stand-in interpreter (tests/fixtures/run/fake-run-python.sh):
// the command line and environment, timeouts and crashes of the run process, isolation of parallel
// runs, and skipping what did not compile; then port-check run / check --run through the binary.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "golden/run_analysis.h"
#include "golden/run_driver.h"
#include "golden/run_stage.h"
#include "golden/run_workspace.h"
#include "test_support.h"

namespace portcheck::run_stage_test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

using test::fakeRunPython;
using test::RunWorkspace;

std::string describe(const RunAnalysis& a) {
  std::string s;
  for (const Diagnostic& d : a.diagnostics) {
    s += d.rule + " " + d.file + ":" + std::to_string(d.line) + ": " + d.message + "\n";
    for (const DiagnosticNote& n : d.notes) s += "  note: " + n.message + "\n";
  }
  return s;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(RunDriver, TheRuntimeGoesAfterPyptoAndBeforeTheCallersPythonPath) {
  test::TempDir pypto;
  pypto.write("runtime/simpler_setup/__init__.py", "");
  Toolchain toolchain;
  toolchain.pypto_root = pypto.path();
  auto env = runEnvironment({{"PYTHONPATH", "/src/pypto-lib"}}, toolchain);
  EXPECT_EQ(env["PYTHONPATH"], (pypto.path() / "python").string() + ":" + (pypto.path() / "runtime").string() +
                                   ":/src/pypto-lib");
}

TEST(RunDriver, RunsTheAdapterInRunModeWithTheSeedAndTheRuntimeOnThePath) {
  RunWorkspace w;
  RunRecord r = runGoldenProcess(w.project("args", "args"), Platform::A2A3, w.settings);
  EXPECT_TRUE(r.result.present) << r.log << r.result_error;
  EXPECT_TRUE(has(r.log, "--platform a2a3sim")) << r.log;
  EXPECT_TRUE(has(r.log, "--mode run --seed 0")) << r.log;
  EXPECT_TRUE(has(r.log, "--project " + (w.ws / "projects/args/pypto_src").string())) << r.log;
  EXPECT_TRUE(has(r.log, "PYTHONPATH=" + (w.ws / "pypto/python").string() + ":" + (w.ws / "pypto/runtime").string()))
      << r.log;
  EXPECT_TRUE(has(r.log, "CWD=" + (w.ws / "projects/args/pypto_src").string())) << r.log;
  EXPECT_EQ(r.platform, "a2a3sim");
  EXPECT_EQ(r.out_dir_display.rfind(".port-check-cache/run/args-", 0), 0u) << r.out_dir_display;
  RunAnalysis a = analyzeRun(r);
  EXPECT_EQ(a.run.status, "passed") << describe(a);
  // The entry's parameter line, mapped from the absolute path the adapter reported.
  EXPECT_EQ(runWorkDir(w.settings, w.project("args", "args"), Platform::A5).filename(), "a5");
}

TEST(RunDriver, TheCompileStagesOutputFolderIsHandedToTheAdapter) {
  RunWorkspace w;
  fs::path compiled = w.ws / ".port-check-cache/compile/args-0123456789/a2a3/out";
  RunRecord r = runGoldenProcess(w.project("args", "args"), Platform::A2A3, w.settings, compiled);
  EXPECT_TRUE(has(r.log, "--compiled-dir " + compiled.string())) << r.log;
  RunRecord alone = runGoldenProcess(w.project("args", "args"), Platform::A2A3, w.settings);
  EXPECT_FALSE(has(alone.log, "--compiled-dir")) << alone.log;
}

TEST(RunDriver, ATimeoutKillsTheWholeProcessGroupAndIsGOLD013) {
  RunWorkspace w;
  auto start = std::chrono::steady_clock::now();
  RunRecord r = runGoldenProcess(w.project("hang", "timeout"), Platform::A2A3, w.settings);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 8s);
  EXPECT_TRUE(r.timed_out);
  // The adapter's child (the simulator's threads live in such children) went with it.
  std::string pid_text = test::readFile(r.out_dir.parent_path() / "grandchild.pid");
  ASSERT_FALSE(pid_text.empty());
  int grandchild = std::stoi(pid_text);
  bool alive = false;  // gone, or a zombie waiting for init to reap it
  for (int i = 0; i < 50; ++i) {
    std::ifstream stat("/proc/" + std::to_string(grandchild) + "/stat");
    std::string line;
    alive = static_cast<bool>(std::getline(stat, line)) && line.find(") Z") == std::string::npos;
    if (!alive) break;
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_FALSE(alive) << "grandchild " << grandchild << " survived the timeout";
  RunAnalysis a = analyzeRun(r);
  ASSERT_EQ(a.diagnostics.size(), 1u) << describe(a);
  EXPECT_EQ(a.diagnostics[0].rule, "GOLD013");
  EXPECT_TRUE(has(a.diagnostics[0].message, "did not finish within 1500 ms")) << a.diagnostics[0].message;
  EXPECT_TRUE(has(describe(a), "BLOCKED")) << describe(a);
  EXPECT_EQ(a.run.failure, "run-timeout");
}

TEST(RunDriver, ACrashBySignalIsGOLD014WithTheLastOutput) {
  RunWorkspace w;
  RunRecord r = runGoldenProcess(w.project("segv", "crash"), Platform::A2A3, w.settings);
  EXPECT_EQ(r.signal, SIGSEGV);
  RunAnalysis a = analyzeRun(r);
  ASSERT_EQ(a.diagnostics.size(), 1u) << describe(a);
  EXPECT_EQ(a.diagnostics[0].rule, "GOLD014");
  EXPECT_TRUE(has(a.diagnostics[0].message, "killed by SIGSEGV")) << a.diagnostics[0].message;
  EXPECT_TRUE(has(describe(a), "dispatching task 3")) << describe(a);
  // The whole output is kept beside the result, and the finding says where.
  EXPECT_EQ(r.log_file_display, r.out_dir_display.substr(0, r.out_dir_display.size() - 4) + "/run.log");
  EXPECT_EQ(test::readFile(r.out_dir.parent_path() / "run.log"), r.log);
  EXPECT_TRUE(has(describe(a), "the run's whole output: " + r.log_file_display)) << describe(a);
}

TEST(RunDriver, NoResultAndAnUnreadableResultAreGOLD014) {
  RunWorkspace w;
  RunAnalysis a = analyzeRun(runGoldenProcess(w.project("quiet", "noresult"), Platform::A2A3, w.settings));
  ASSERT_EQ(a.diagnostics.size(), 1u) << describe(a);
  EXPECT_EQ(a.diagnostics[0].rule, "GOLD014");
  EXPECT_TRUE(has(a.diagnostics[0].message, "exited with status 0 without writing its result"))
      << a.diagnostics[0].message;
  a = analyzeRun(runGoldenProcess(w.project("garbled", "garbage"), Platform::A2A3, w.settings));
  ASSERT_EQ(a.diagnostics.size(), 1u) << describe(a);
  EXPECT_EQ(a.diagnostics[0].rule, "GOLD014");
  EXPECT_TRUE(has(a.diagnostics[0].message, "the run result is unreadable: not JSON")) << a.diagnostics[0].message;
  EXPECT_FALSE(has(describe(a), "\x01"));
}

TEST(RunDriver, AMissingInterpreterIsGOLD010) {
  RunWorkspace w;
  w.settings.toolchain.python = (w.ws / "no-such-python").string();
  RunAnalysis a = analyzeRun(runGoldenProcess(w.project("nopy", "pass"), Platform::A2A3, w.settings));
  ASSERT_EQ(a.diagnostics.size(), 1u) << describe(a);
  EXPECT_EQ(a.diagnostics[0].rule, "GOLD010");
}

TEST(RunStage, ParallelRunsUseTheirOwnFoldersAndKeepTargetOrder) {
  RunWorkspace w;
  std::vector<CompileTarget> targets = {w.project("alpha", "wrong_axis"), w.project("beta", "pass"),
                                        w.project("gamma", "never_written"), w.project("delta", "gcc12")};
  std::vector<CompileTargetSummary> compiled(targets.size());
  for (auto& c : compiled) c.status = "ok";
  w.settings.environment["FAKE_RUN_SLEEP"] = "1";
  w.settings.timeout = 20s;
  auto start = std::chrono::steady_clock::now();
  RunStageOptions options;
  options.jobs = 4;
  RunStageResult r = runGoldenStage(targets, compiled, Platform::A2A3, w.settings, options);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, 3500ms) << "four 1-second runs did not overlap";
  ASSERT_EQ(r.runs.size(), 4u);
  EXPECT_EQ(r.runs[0].project, "alpha");
  EXPECT_EQ(r.runs[0].status, "failed");
  EXPECT_EQ(r.runs[1].status, "passed");
  EXPECT_EQ(r.runs[2].rule, "GOLD002");
  EXPECT_EQ(r.runs[3].failure, "kernel-toolchain-missing");
  std::set<std::string> folders;
  for (const GoldenRun& g : r.runs) {
    folders.insert(g.out_dir);
    EXPECT_TRUE(fs::exists(w.ws / g.out_dir / "marker.txt")) << g.out_dir;
  }
  EXPECT_EQ(folders.size(), 4u);
  EXPECT_TRUE(has(r.detail, "4 programs on a2a3sim: 1 passed, 2 differ from the golden, 1 could not run")) << r.detail;
}

TEST(RunStage, WhatDidNotCompileIsNotRun) {
  RunWorkspace w;
  std::vector<CompileTarget> targets = {w.project("broken", "pass")};
  std::vector<CompileTargetSummary> compiled(1);
  compiled[0].status = "compile_error";
  RunStageResult r = runGoldenStage(targets, compiled, Platform::A5, w.settings, {});
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.runs[0].status, "skipped");
  EXPECT_EQ(r.runs[0].failure, "compile-failed");
  EXPECT_EQ(r.runs[0].platform, "a5sim");
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_FALSE(fs::exists(w.ws / "projects/runs.log")) << "the run process was started";
}

// Through the binary: compile (fake) then run (fake).
using test::CliWorkspace;

TEST(RunCommand, AWrongPortExitsOneWithTheOutputNamedAndJsonFigures) {
  CliWorkspace c;
  c.project("softmax", "wrong_axis");
  auto r = test::runBinary("run --format json " + c.args() + "projects/softmax", c.ws.path());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "\"rule\": \"GOLD001\"")) << r.out;
  EXPECT_TRUE(has(r.out, "output 'out' of softmax differs from the golden on a2a3sim")) << r.out;
  EXPECT_TRUE(has(r.out, "\"golden\": [")) << r.out;
  EXPECT_TRUE(has(r.out, "\"mismatches\": 23878")) << r.out;
  EXPECT_TRUE(has(r.out, "\"name\": \"run\"")) << r.out;
  // No absolute path in what the run stage reports (run.toolchain names the --pypto folder as given).
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(has(j["diagnostics"].dump() + j["golden"].dump(), c.ws.path().string())) << r.out;
}

TEST(RunCommand, ACorrectPortExitsZeroAndTextSaysItMatched) {
  CliWorkspace c;
  c.project("softmax", "pass");
  auto r = test::runBinary("run " + c.args() + "projects/softmax", c.ws.path());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "softmax")) << r.out;
  EXPECT_TRUE(has(r.out, "out")) << r.out;
}

TEST(RunCommand, AMissingRuntimeIsAToolErrorExitTwo) {
  CliWorkspace c;
  c.project("softmax", "old_torch");
  auto r = test::runBinary("run " + c.args() + "projects/softmax", c.ws.path());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(has(r.out, "[GOLD010]")) << r.out;
}

TEST(RunCommand, CheckRunsTheSimulatorOnlyWithRun) {
  CliWorkspace c;
  c.project("softmax", "wrong_axis");
  auto plain = test::runBinary("check --format json --no-kernel-compile " + c.args() + "projects/softmax", c.ws.path());
  EXPECT_FALSE(has(plain.out, "GOLD001")) << plain.out;
  EXPECT_FALSE(fs::exists(c.ws / "projects/runs.log"));
  auto with_run =
      test::runBinary("check --run --format json --no-kernel-compile " + c.args() + "projects/softmax", c.ws.path());
  EXPECT_TRUE(has(with_run.out, "GOLD001")) << with_run.out;
  EXPECT_TRUE(has(with_run.out, "\"name\": \"run\"")) << with_run.out;
}

TEST(RunCommand, WithoutAToolchainRunAndCheckRunAreToolErrorsThatSayNothingRan) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("projects/p/pypto_src/golden.py", "x = 1\n");
  std::string pypto = "--pypto '" + (ws / "nowhere").string() + "' ";
  auto r = test::runBinary("run " + pypto + "projects/p", ws.path());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(has(r.out, "[COMP909]")) << r.out;
  // check --run asked for a run: the lint still reports, the missing toolchain is an error and exit 2.
  auto c = test::runBinary("check --run --format json --no-kernel-compile " + pypto + "projects/p", ws.path());
  EXPECT_EQ(c.exit_code, 2) << c.out;
  EXPECT_TRUE(has(c.out, "COMP909")) << c.out;
  EXPECT_TRUE(has(c.out, "\"name\": \"lint\"") || has(c.out, "\"name\": \"estimate\"")) << c.out;
  // Without --run, check only skips the compile (TOOL003) and exits on its findings.
  auto plain = test::runBinary("check --format json --no-kernel-compile " + pypto + "projects/p", ws.path());
  EXPECT_NE(plain.exit_code, 2) << plain.out;
  EXPECT_TRUE(has(plain.out, "TOOL003")) << plain.out;
}

}  // namespace
}  // namespace portcheck::run_stage_test
