// Process handling: output capture, exit statuses, signals, timeouts that kill the whole group.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "process/subprocess.h"
#include "test_support.h"

namespace portcheck {
namespace {

using namespace std::chrono_literals;

ProcessSpec shell(const std::string& script) {
  ProcessSpec s;
  s.argv = {"/bin/sh", "-c", script};
  s.env = currentEnvironment();
  s.timeout = 20s;
  return s;
}

TEST(Subprocess, CapturesMergedOutputAndExitStatus) {
  auto r = runProcess(shell("echo out; echo err 1>&2; exit 3"));
  ASSERT_TRUE(r.started) << r.spawn_error;
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.output, "out\nerr\n");
}

TEST(Subprocess, ReportsTheTerminatingSignal) {
  auto r = runProcess(shell("kill -SEGV $$"));
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_NE(signalDescription(SIGSEGV).find("SIGSEGV"), std::string::npos);
}

TEST(Subprocess, TimeoutKillsTheWholeProcessGroup) {
  test::TempDir dir;
  auto spec = shell("sleep 60 & echo $! > '" + (dir / "child.pid").string() + "'; echo started; sleep 60");
  spec.timeout = 500ms;
  spec.kill_grace = 200ms;
  auto start = std::chrono::steady_clock::now();
  auto r = runProcess(spec);
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(r.timed_out);
  EXPECT_NE(r.signal, 0);
  EXPECT_LT(took, 10s);
  EXPECT_NE(r.output.find("started"), std::string::npos);
  int pid = std::stoi(test::readFile(dir / "child.pid"));
  // The background sleep was in the group: it is gone (or a zombie about to be reaped by init).
  bool alive = false;
  for (int i = 0; i < 50; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    alive = static_cast<bool>(std::getline(stat, line)) && line.find(") Z") == std::string::npos;
    if (!alive) break;
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_FALSE(alive) << "the grandchild " << pid << " survived the timeout";
}

// A caller's cancellation (an MCP client's notifications/cancelled) ends the whole group like a
// timeout would, long before the timeout.
TEST(Subprocess, CancellationKillsTheWholeProcessGroup) {
  test::TempDir dir;
  auto spec = shell("sleep 60 & echo $! > '" + (dir / "child.pid").string() + "'; echo started; sleep 60");
  spec.kill_grace = 200ms;
  std::atomic<bool> cancel{false};
  spec.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(300ms);
    cancel = true;
  });
  auto start = std::chrono::steady_clock::now();
  auto r = runProcess(spec);
  canceller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.signal, 0);
  int pid = std::stoi(test::readFile(dir / "child.pid"));
  bool alive = false;
  for (int i = 0; i < 50; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    alive = static_cast<bool>(std::getline(stat, line)) && line.find(") Z") == std::string::npos;
    if (!alive) break;
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_FALSE(alive) << "the grandchild " << pid << " survived the cancellation";
}

TEST(Subprocess, AGrandchildHoldingThePipeDoesNotHangTheCaller) {
  auto spec = shell("(sleep 30 &) ; echo done");
  auto start = std::chrono::steady_clock::now();
  auto r = runProcess(spec);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.output.find("done"), std::string::npos);
}

TEST(Subprocess, LargeOutputIsDrainedAndCapped) {
  auto spec = shell("head -c 3000000 /dev/zero | tr '\\0' x; echo; echo END");
  spec.max_output = 64 * 1024;
  auto r = runProcess(spec);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GT(r.output_dropped, 0u);
  EXPECT_LT(r.output.size(), 70u * 1024);
  EXPECT_NE(r.output.find("END"), std::string::npos) << "the tail is kept";
  EXPECT_NE(r.output.find("bytes of output dropped"), std::string::npos);
}

TEST(Subprocess, AMissingProgramIsASpawnErrorNotACrash) {
  ProcessSpec s;
  s.argv = {"port-check-no-such-interpreter"};
  s.env = {{"PATH", "/usr/bin:/bin"}};
  auto r = runProcess(s);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.spawn_error.find("not found"), std::string::npos) << r.spawn_error;
}

TEST(Subprocess, RunsInTheGivenFolderWithExactlyTheGivenEnvironment) {
  test::TempDir dir;
  ProcessSpec s;
  s.argv = {"/bin/sh", "-c", "pwd; echo \"A=$A B=${B-unset}\""};
  s.env = {{"A", "1"}, {"PATH", "/usr/bin:/bin"}};
  s.cwd = dir.path();
  auto r = runProcess(s);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find(std::filesystem::canonical(dir.path()).string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("A=1 B=unset"), std::string::npos) << r.output;
}

// A compile chained to a run: each phase has its own limit, the second counted from the marker line.
TEST(Subprocess, APhaseMarkerGivesTheSecondPhaseItsOwnLimit) {
  // Each phase takes 0.6 s: 1.2 s in all, over the first limit, but each within its own.
  ProcessSpec both = shell("sleep 0.6; printf 'compiled\\n[port-check] run phase after 0.6 s\\n'; sleep 0.6; echo ran");
  both.timeout = 1000ms;
  both.phase_marker = "[port-check] run phase after ";
  both.phase_timeout = 1000ms;
  auto r = runProcess(both);
  EXPECT_FALSE(r.timed_out) << r.output;
  EXPECT_TRUE(r.phase_reached);
  EXPECT_EQ(r.exit_code, 0);

  // The second phase hangs: it is killed at its own limit, not at the sum of both.
  ProcessSpec hang = shell("echo '[port-check] run phase after 0.0 s'; sleep 30");
  hang.timeout = 20s;
  hang.phase_marker = "[port-check] run phase after ";
  hang.phase_timeout = 300ms;
  auto start = std::chrono::steady_clock::now();
  auto h = runProcess(hang);
  EXPECT_TRUE(h.timed_out);
  EXPECT_TRUE(h.phase_reached);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);

  // A marker that is not at a line start is not the marker.
  ProcessSpec quoted = shell("echo 'say [port-check] run phase after'; sleep 30");
  quoted.timeout = 300ms;
  quoted.phase_marker = "[port-check] run phase after ";
  quoted.phase_timeout = 60s;
  auto q = runProcess(quoted);
  EXPECT_TRUE(q.timed_out);
  EXPECT_FALSE(q.phase_reached);
}

}  // namespace
}  // namespace portcheck
