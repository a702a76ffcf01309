// port-check doctor and a hanging interpreter: its probe times out after --probe-timeout, not minutes;
// a cancellation (MCP) or Ctrl-C kills the probe's whole process group, starts nothing more, and the
// report says "interrupted", not "timed out".
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "doctor/doctor_probes.h"
#include "test_support.h"

namespace portcheck::doctor {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// An interpreter that never answers; it starts a child of its own (a grandchild of port-check) and writes
// both process ids to <dir>/pids.
fs::path hangingPython(const test::TempDir& dir) {
  fs::path script = dir.write("hang.sh", "#!/bin/sh\n/bin/sleep 120 &\necho \"$$ $!\" > '" + (dir / "pids").string() +
                                             "'\nwait\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

Toolchain toolchainWith(const test::TempDir& dir, const fs::path& python) {
  Toolchain t;
  t.found = true;
  t.pypto_root = dir / "pypto";
  t.python = python.string();
  return t;
}

ProbeSettings settingsIn(const test::TempDir& dir) {
  ProbeSettings s;
  s.environment = {{"PATH", (dir / "empty-bin").string()}};  // no ptoas, no g++-15: only the interpreter probe
  s.cache_root = dir / "cache";
  return s;
}

// True once the process is gone or a zombie waiting for its reaper.
bool ended(int pid) {
  for (int i = 0; i < 50; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    std::size_t paren = text.rfind(')');
    if (!stat || paren == std::string::npos || text.substr(paren + 2, 1) == "Z") return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

std::vector<int> pidsIn(const test::TempDir& dir) {
  std::ifstream in(dir / "pids");
  int a = 0, b = 0;
  in >> a >> b;
  return {a, b};
}

TEST(DoctorProbes, AHangingInterpreterTimesOutAfterTheProbeTimeout) {
  EXPECT_EQ(ProbeSettings{}.timeout, std::chrono::seconds(30));  // tens of seconds by default, not minutes
  test::TempDir dir;
  ProbeSettings s = settingsIn(dir);
  s.timeout = std::chrono::seconds(1);
  auto start = Clock::now();
  ToolchainFacts facts = gatherFacts(toolchainWith(dir, hangingPython(dir)), s);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(facts.probe_error, "timed out after 1 s");
  EXPECT_FALSE(facts.probe_interrupted);
  for (int pid : pidsIn(dir)) EXPECT_TRUE(ended(pid)) << pid;
}

TEST(DoctorProbes, ACancellationKillsTheProbesProcessGroupAndSaysInterrupted) {
  test::TempDir dir;
  ProbeSettings s = settingsIn(dir);
  std::atomic<bool> cancel{false};
  s.cancel = &cancel;
  std::thread canceller([&] {
    for (int i = 0; i < 100 && !fs::exists(dir / "pids"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel = true;
  });
  auto start = Clock::now();
  ToolchainFacts facts = gatherFacts(toolchainWith(dir, hangingPython(dir)), s);
  canceller.join();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(facts.probe_interrupted);
  EXPECT_TRUE(facts.interrupted);
  EXPECT_EQ(facts.probe_error.rfind("interrupted after ", 0), 0u) << facts.probe_error;
  std::vector<int> pids = pidsIn(dir);
  ASSERT_GT(pids[1], 0);
  for (int pid : pids) EXPECT_TRUE(ended(pid)) << "probe process " << pid << " outlived the cancellation";
}

// Ctrl-C on the CLI: SIGINT to port-check doctor while its interpreter probe hangs.
TEST(DoctorProbes, CtrlCOnTheCliReportsInterruptedAndLeavesNoProbeRunning) {
  test::TempDir dir;
  dir.write(".git/HEAD", "ref: refs/heads/main\n");
  dir.write("pypto/python/pypto/__init__.py", "");
  fs::path python = hangingPython(dir);
  std::string doctor = "env -u PYPTO_ROOT -u PYPTO_PYTHON PATH=/usr/bin:/bin '" + std::string(PORTCHECK_BINARY) +
                       "' doctor --format json --pypto '" + (dir / "pypto").string() + "' --python '" +
                       python.string() + "'";
  std::string script = "cd '" + dir.path().string() + "' && { " + doctor + " > out.json 2>&1 & pid=$!; " +
                       "i=0; while [ ! -s pids ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; " +
                       "kill -INT $pid; wait $pid; echo $?; }";
  auto start = Clock::now();
  test::CommandResult r = test::runShell(script);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(r.out, "2\n");
  std::string out = test::readFile(dir / "out.json");
  nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << out;
  EXPECT_EQ(j["interrupted"], true);
  for (const auto& c : j["checks"])
    if (c["id"] == "passes.python") {
      EXPECT_EQ(c["state"], "skipped");
      EXPECT_NE(c["found"].get<std::string>().find("interrupted"), std::string::npos) << c.dump();
    }
  EXPECT_EQ(out.find("timed out"), std::string::npos) << out;
  for (int pid : pidsIn(dir)) EXPECT_TRUE(ended(pid)) << "probe process " << pid << " outlived Ctrl-C";
}

}  // namespace
}  // namespace portcheck::doctor
