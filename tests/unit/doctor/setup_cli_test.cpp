// port-check setup through the binary, against a fake python3 and apt-get on a PATH of the test's own
// (tests/fixtures/setup/): what it installs into the named environment, what it leaves to the user, and
// that it never runs apt-get without --apt. No network.
#include <gtest/gtest.h>
#include <unistd.h>

#include "test_support.h"

namespace portcheck::setup_cli_test {
namespace {

namespace fs = std::filesystem;

struct SetupWorkspace {
  test::TempDir ws;
  fs::path bin;

  SetupWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    bin = ws / "bin";
    fs::create_directories(bin);
    fs::create_symlink(test::fixturesDir() + "/setup/fake-python3.sh", bin / "python3");
    fs::create_symlink(test::fixturesDir() + "/setup/fake-apt-get.sh", bin / "apt-get");
  }

  test::CommandResult setup(const std::string& env, const std::string& args) {
    std::string cmd = "env -u PYPTO_ROOT -u PYPTO_PYTHON PATH='" + bin.string() + ":/usr/bin:/bin' FAKE_SETUP_LOG='" +
                      (ws / "calls.log").string() + "' " + env + " " + std::string(PORTCHECK_BINARY) + " setup " + args;
    return test::runShell("cd '" + ws.path().string() + "' && " + cmd + " 2>&1");
  }

  std::string calls() const { return test::readFile(ws / "calls.log"); }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(SetupCli, MakesTheEnvironmentInstallsWhatPypiOffersAndPrintsTheRemainingSteps) {
  SetupWorkspace w;
  test::CommandResult r = w.setup("", "--venv env");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::string venv = (w.ws / "env").string();
  std::string calls = w.calls();
  EXPECT_TRUE(has(calls, "python3 -m venv " + venv)) << calls;
  EXPECT_TRUE(has(calls, venv + "/bin/python -m pip install torch>=2.3 cloudpickle nanobind>=2,<3 scikit-build-core"))
      << calls;
  EXPECT_FALSE(has(calls, "apt-get")) << calls;
  // The Debian packages are reported, not installed; the checkouts' steps name the environment's python.
  EXPECT_TRUE(has(r.out, "apt-get install -y --no-install-recommends llvm-19-dev libmlir-19-dev")) << r.out;
  EXPECT_TRUE(has(r.out, venv + "/bin/python -m pip install --no-build-isolation -e '<pypto>'")) << r.out;
  EXPECT_TRUE(has(r.out, "pto_isa.pin")) << r.out;
  EXPECT_TRUE(has(r.out, "PTOAS_ROOT")) << r.out;
  EXPECT_TRUE(has(r.out, "port-check doctor --run")) << r.out;
  // A second run reuses the environment.
  ASSERT_EQ(w.setup("", "--venv env").exit_code, 0);
  EXPECT_EQ(test::readFile(w.ws / "calls.log").find("-m venv", calls.size()), std::string::npos);
}

TEST(SetupCli, APipFailureExitsOneWithPipsOwnWords) {
  SetupWorkspace w;
  test::CommandResult r = w.setup("FAKE_PIP_FAIL=1", "--venv env");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "FAILED (exit status 1)")) << r.out;
  EXPECT_TRUE(has(r.out, "No matching distribution found for torch>=2.3")) << r.out;
}

TEST(SetupCli, DryRunRunsNothing) {
  SetupWorkspace w;
  test::CommandResult r = w.setup("", "--venv env --dry-run");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "would install what PyPI offers")) << r.out;
  EXPECT_EQ(w.calls(), "");
  EXPECT_FALSE(fs::exists(w.ws / "env"));
}

TEST(SetupCli, AptInstallsTheDebianPackagesOnlyAsRoot) {
  SetupWorkspace w;
  test::CommandResult r = w.setup("", "--venv env --apt");
  if (::geteuid() != 0) {
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_TRUE(has(r.out, "needs root")) << r.out;
    EXPECT_EQ(w.calls(), "");
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::string calls = w.calls();
  EXPECT_TRUE(has(calls, "apt-get install -y --no-install-recommends llvm-19-dev libmlir-19-dev mlir-19-tools "
                         "clang-19 libclang-rt-19-dev"))
      << calls;
  EXPECT_LT(calls.find("apt-get"), calls.find("-m venv")) << "python3-venv comes first";
}

TEST(SetupCli, WithoutVenvItIsABadArgument) {
  SetupWorkspace w;
  EXPECT_EQ(w.setup("", "").exit_code, 2);
}

}  // namespace
}  // namespace portcheck::setup_cli_test
