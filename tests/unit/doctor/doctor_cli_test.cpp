// port-check doctor through the binary, on stand-ins for the interpreter (fake-doctor-python.sh), ptoas
// and the simulator's kernel compiler (fake-gxx15.sh, installed as g++-15 on a PATH of the test's own):
// levels, fixes, exit statuses, JSON, and a self-test that is not run when the simulator is out of reach.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace portcheck::doctor_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct DoctorWorkspace {
  test::TempDir ws;
  fs::path bin;  // PATH for the binary: g++-15 when installed, and the system's tools

  DoctorWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("pypto/python/pypto/__init__.py", "");
    ws.write("pypto/toolchain/versions.env", "PTOAS_VERSION=v0.57\n");
    ws.write("pto-isa/include/pto/pto-inst.hpp", "// stand-in\n");
    fs::path ptoas = ws.write("ptoas/ptoas", "#!/bin/sh\necho 'ptoas 0.57'\n");
    fs::permissions(ptoas, fs::perms::owner_all);
    bin = ws / "bin";
    fs::create_directories(bin);
  }

  void installGxx15() { fs::create_symlink(test::fixturesDir() + "/doctor/fake-gxx15.sh", bin / "g++-15"); }

  test::CommandResult doctor(const std::string& env, const std::string& args) {
    std::string cmd = "env -u PYPTO_ROOT -u PYPTO_PYTHON -u SIMPLER_ROOT PATH='" + bin.string() +
                      ":/usr/bin:/bin' PTOAS_ROOT='" + (ws / "ptoas").string() + "' FAKE_PTO_ISA='" +
                      (ws / "pto-isa").string() + "' " + env + " " + std::string(PORTCHECK_BINARY) +
                      " doctor --pypto '" + (ws / "pypto").string() + "' --python '" + test::fixturesDir() +
                      "/doctor/fake-doctor-python.sh' " + args;
    return test::runShell("cd '" + ws.path().string() + "' && " + cmd + " 2>&1");
  }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const json& check(const json& report, const std::string& id) {
  for (const json& c : report["checks"])
    if (c["id"] == id) return c;
  static const json none = json::object();
  ADD_FAILURE() << "no check " << id;
  return none;
}

TEST(DoctorCli, EverythingThereReachesTheSimulatorAndExitsZero) {
  DoctorWorkspace w;
  w.installGxx15();
  test::CommandResult r = w.doctor("", "--format json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  json j = json::parse(r.out);
  EXPECT_EQ(j["schema"], "port-check-doctor/1");
  EXPECT_EQ(j["reached"], "simulator");
  EXPECT_TRUE(j["healthy"].get<bool>());
  EXPECT_EQ(check(j, "kernels.ptoas")["state"], "ok");
  EXPECT_EQ(check(j, "simulator.bf16")["state"], "ok");
  EXPECT_TRUE(j["self_test"].is_null());
}

TEST(DoctorCli, ClangWithoutBf16IsCaughtAndTheTextSaysWhatFixesIt) {
  DoctorWorkspace w;
  w.installGxx15();
  test::CommandResult r = w.doctor("FAKE_GXX_SYNTAX=clang19_bf16_as_half.txt", "");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "MISSING  BF16 in simulated kernels")) << r.out;
  EXPECT_TRUE(has(r.out, "bfloat16_t is IEEE half (_Float16)")) << r.out;
  EXPECT_TRUE(has(r.out, "fix: use GCC >= 14")) << r.out;
  EXPECT_TRUE(has(r.out, "Reached: kernels")) << r.out;
  // Asking only for the kernels level is satisfied.
  EXPECT_EQ(w.doctor("FAKE_GXX_SYNTAX=clang19_bf16_as_half.txt", "--level kernels").exit_code, 0);
}

TEST(DoctorCli, Gcc12AndAMissingBuiltinsRuntimeAreEachTheirOwnFinding) {
  DoctorWorkspace w;
  w.installGxx15();
  json gcc = json::parse(w.doctor("FAKE_GXX_SYNTAX=gcc12_headers.txt", "--format json").out);
  EXPECT_EQ(check(gcc, "simulator.cpu_headers")["state"], "missing");
  EXPECT_TRUE(has(check(gcc, "simulator.cpu_headers")["found"], "TReduceIdx.hpp:27:23"));
  json link = json::parse(w.doctor("FAKE_GXX_LINK_ERROR=1", "--format json").out);
  EXPECT_EQ(check(link, "simulator.cpu_headers")["state"], "ok");
  EXPECT_EQ(check(link, "simulator.bf16")["state"], "missing");
  EXPECT_TRUE(has(check(link, "simulator.bf16")["found"], "__truncsfbf2"));
  json bits = json::parse(w.doctor("FAKE_GXX_BITS=0x3c00", "--format json").out);
  EXPECT_TRUE(has(check(bits, "simulator.bf16")["found"], "wrong bits")) << bits.dump();
}

TEST(DoctorCli, AnOldPythonSetUpNamesEachMissingPieceAndSkipsTheSelfTest) {
  DoctorWorkspace w;
  test::CommandResult r = w.doctor("FAKE_PROBE=probe_old_torch.json", "--run");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "torch 1.13.1 has no torch.uint16")) << r.out;
  EXPECT_TRUE(has(r.out, "No module named 'simpler_setup'")) << r.out;
  EXPECT_TRUE(has(r.out, "no g++-15 on PATH")) << r.out;
  EXPECT_TRUE(has(r.out, "-m pip install cloudpickle")) << r.out;
  EXPECT_TRUE(has(r.out, "Self-test not run: the simulator level is not reached")) << r.out;
  EXPECT_TRUE(has(r.out, "Reached: kernels")) << r.out;
}

TEST(DoctorCli, AProbeThatCrashesIsReportedNotACrashOfDoctor) {
  DoctorWorkspace w;
  test::CommandResult r = w.doctor("FAKE_PROBE=crash", "--format json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  json j = json::parse(r.out);
  EXPECT_TRUE(j["reached"].is_null());
  EXPECT_TRUE(has(check(j, "passes.python")["found"], "SIGSEGV")) << j.dump(2);
}

TEST(DoctorCli, PypiLookalikesAreEachNamedWithWhereTheyAreAndTheFix) {
  DoctorWorkspace w;
  // PyPI's ptoas 0.1.1: the dynamic loader stops it before main.
  w.ws.write("ptoas/ptoas",
             "#!/bin/sh\necho \"$0: error while loading shared libraries: libMLIRMlirOptMain.so.19.1: cannot open "
             "shared object file: No such file or directory\" >&2\nexit 127\n");
  test::CommandResult r = w.doctor("FAKE_PROBE=probe_pypi_lookalikes.json", "");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "`import pypto` gives CANN's PyPTO (PyPI pypto 0.2.0)")) << r.out;
  EXPECT_TRUE(has(r.out, "cannot start: exit status 127")) << r.out;
  EXPECT_TRUE(has(r.out, "libMLIRMlirOptMain.so.19.1")) << r.out;
  EXPECT_TRUE(has(r.out, "PyPI's ptoas wheel")) << r.out;
  EXPECT_TRUE(has(r.out, "PyPI's `simpler` is installed")) << r.out;
  for (const char* fix : {"-m pip uninstall pypto", "-m pip uninstall ptoas", "-m pip uninstall simpler"})
    EXPECT_TRUE(has(r.out, fix)) << fix << "\n" << r.out;
  EXPECT_TRUE(has(r.out, "Reached: nothing")) << r.out;
}

TEST(DoctorCli, BadArgumentsExitTwo) {
  DoctorWorkspace w;
  EXPECT_EQ(w.doctor("", "--level everything").exit_code, 2);
  test::CommandResult sarif = w.doctor("", "--format sarif");
  EXPECT_EQ(sarif.exit_code, 2);
  EXPECT_TRUE(has(sarif.out, "doctor prints text or json")) << sarif.out;
}

}  // namespace
}  // namespace portcheck::doctor_cli_test
