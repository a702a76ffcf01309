// port-check compile and the compile stage of port-check check, through the binary with a stand-in
// interpreter; and the end-to-end test against the real PyPTO toolchain when it is found.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

#include "process/subprocess.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

// A workspace with a fake PyPTO checkout (enough for toolchain discovery) and one project per mode.
struct CliWorkspace {
  test::TempDir ws;
  CliWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("pypto/python/pypto/__init__.py", "");
  }
  void project(const std::string& name, const std::string& mode) {
    ws.write("projects/" + name + "/pypto_src/FAKE_MODE", mode + "\n");
    ws.write("projects/" + name + "/pypto_src/golden.py", "x = 1\n");
  }
  std::string args() const { return "--pypto '" + (ws / "pypto").string() + "' --python '" + test::fakeCompilePython() + "' "; }
};

TEST(CompileCommand, ACleanCompileExitsZeroAndSaysWhichLevelsRan) {
  CliWorkspace c;
  c.project("good", "ok");
  auto r = test::runBinary("compile --format json " + c.args() + "projects/good", c.ws.path());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"compile\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 compiled, 0 failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("levels: passes (ptoas not found"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("toolchain pypto"), std::string::npos) << r.out;
}

TEST(CompileCommand, TheReportNamesTheToolchainWithoutAbsolutePaths) {
  // Reports are kept in repositories (projects/*/port-check-report.*.json): no machine paths in them.
  CliWorkspace c;
  c.project("good", "ok");
  auto r = test::runBinary("compile --format json " + c.args() + "projects/good", c.ws.path());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"toolchain\": \"pypto unknown at pypto (from --pypto), python fake-python.sh"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find(c.ws.path().string()), std::string::npos) << "absolute paths leaked:\n" << r.out;
  EXPECT_EQ(r.out.find(test::fixturesDir()), std::string::npos) << "absolute paths leaked:\n" << r.out;
}

TEST(CompileCommand, ACompilerCrashExitsOneAndATimeoutIsReported) {
  CliWorkspace c;
  c.project("crashing", "crash");
  c.project("hanging", "timeout");
  auto r = test::runBinary("compile --timeout 1 --jobs 2 " + c.args() + "projects/", c.ws.path());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("[COMP902]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[COMP901]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[COMP905]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(c.ws.path().string()), std::string::npos) << "absolute paths leaked:\n" << r.out;
}

TEST(CompileCommand, WithoutAToolchainCompileIsAToolErrorAndCheckSkipsTheStage) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("projects/p/pypto_src/golden.py", "x = 1\n");
  auto r = test::runBinary("compile --pypto '" + (ws / "nowhere").string() + "' projects/p", ws.path());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("[COMP909]"), std::string::npos) << r.out;
  auto check = test::runBinary("check --pypto '" + (ws / "nowhere").string() + "' projects/p", ws.path());
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_NE(check.out.find("compile stage skipped"), std::string::npos) << check.out;
}

TEST(CompileCommand, CheckRunsTheCompileStageWhenTheToolchainIsFound) {
  CliWorkspace c;
  c.project("broken", "load_error");
  auto r = test::runBinary("check " + c.args() + "projects/broken", c.ws.path());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("projects/broken/pypto_src/golden.py:3: error: broken: loading the program failed"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("compile stage skipped"), std::string::npos) << r.out;
}

TEST(CompileCommand, TheSecondRunIsReplayedFromTheCache) {
  CliWorkspace c;
  c.project("good", "ok");
  auto first = test::runBinary("compile --format json " + c.args() + "projects/good", c.ws.path());
  auto second = test::runBinary("compile --format json " + c.args() + "projects/good", c.ws.path());
  EXPECT_EQ(second.exit_code, 0);
  EXPECT_NE(second.out.find("1 replayed from cache"), std::string::npos) << second.out;
  EXPECT_EQ(test::readFile(c.ws / "projects/good/runs.log"), "run\n");
  auto forced = test::runBinary("compile --no-cache " + c.args() + "projects/good", c.ws.path());
  EXPECT_EQ(test::readFile(c.ws / "projects/good/runs.log"), "run\nrun\n");
  auto elsewhere = test::runBinary("compile --cache-dir other-cache " + c.args() + "projects/good", c.ws.path());
  EXPECT_TRUE(fs::is_directory(c.ws / "other-cache" / "results"));
}

TEST(CompileCommand, VersionNamesTheCompileLevels) {
  CliWorkspace c;
  auto r = test::runBinary("--version --pypto '" + (c.ws / "pypto").string() + "'", c.ws.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("compile levels: passes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("levels: passes"), std::string::npos) << r.out;
}

// ---- The real toolchain --------------------------------------------------------------------------

struct RealToolchain {
  fs::path pypto;
  std::string python;
  std::string why_not;
};

RealToolchain findRealToolchain() {
  RealToolchain t;
  const char* root = std::getenv("PYPTO_ROOT");
  t.pypto = root && *root ? fs::path(root) : fs::path(test::sourceDir()).parent_path() / "pypto";
  const char* py = std::getenv("PYPTO_PYTHON");
  t.python = py && *py ? py : "python3";
  std::error_code ec;
  if (!fs::is_regular_file(t.pypto / "python/pypto/__init__.py", ec)) {
    t.why_not = "no PyPTO checkout at " + t.pypto.string() + " (set PYPTO_ROOT)";
    return t;
  }
  ProcessSpec probe;
  probe.argv = {t.python, "-c", "import pypto.language, torch"};
  probe.env = currentEnvironment();
  probe.env["PYTHONPATH"] = (t.pypto / "python").string();
  probe.timeout = std::chrono::seconds(120);
  auto r = runProcess(probe);
  if (!r.started || r.exit_code != 0) {
    std::string out = r.started ? r.output : r.spawn_error;
    if (out.size() > 300) out = out.substr(out.size() - 300);
    t.why_not = "PyPTO at " + t.pypto.string() + " does not import with " + t.python +
                " (build its extension; set PYPTO_PYTHON to an interpreter with torch): " + out;
  }
  return t;
}

TEST(CompileEndToEnd, RealToolchainCompilesPortsAndProgramFiles) {
  RealToolchain real = findRealToolchain();
  if (!real.why_not.empty()) GTEST_SKIP() << "real PyPTO toolchain not available: " << real.why_not;
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  fs::path e2e = fs::path(test::fixturesDir()) / "compile" / "e2e";
  fs::create_directories(ws / "projects");
  fs::copy(e2e / "vec_ok", ws / "projects/vec_ok", fs::copy_options::recursive);
  fs::copy(e2e / "vec_oom", ws / "projects/vec_oom", fs::copy_options::recursive);
  fs::create_directories(ws / "lib");
  fs::copy_file(e2e / "lib_style_softmax.py", ws / "lib/lib_style_softmax.py");
  std::string args = "--format json --pypto '" + real.pypto.string() + "' --python '" + real.python + "' ";

  auto ok = test::runBinary("compile " + args + "projects/vec_ok lib/lib_style_softmax.py", ws.path(), true);
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_NE(ok.out.find("2 compiled, 0 failed"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("fused_add_mul_incore_0"), std::string::npos) << "SRAM row expected:\n" << ok.out;
  EXPECT_NE(ok.out.find("65536"), std::string::npos) << ok.out;
  EXPECT_FALSE(fs::exists(ws / "projects/vec_ok/pypto_src/__pycache__")) << "nothing is written into pypto_src";

  auto oom = test::runBinary("compile " + args + "projects/vec_oom", ws.path(), true);
  EXPECT_EQ(oom.exit_code, 1) << oom.out;
  EXPECT_NE(oom.out.find("262144"), std::string::npos) << oom.out;
  EXPECT_NE(oom.out.find("188416"), std::string::npos) << oom.out;
  EXPECT_EQ(oom.out.find(real.pypto.string()), std::string::npos) << "compiler-internal paths leaked:\n" << oom.out;

  auto start = std::chrono::steady_clock::now();
  auto again = test::runBinary("compile " + args + "projects/vec_ok", ws.path(), true);
  auto took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(again.out.find("replayed from cache"), std::string::npos) << again.out;
  EXPECT_LT(took, 500) << "a cached replay (including process start) took " << took << " ms";
}

}  // namespace
}  // namespace portcheck
