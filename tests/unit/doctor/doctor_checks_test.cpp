// port-check doctor: the verdicts drawn from gathered facts (doctor_checks), the header/BF16 probe's
// reading of real compiler output, and the ptoas version readers.
#include <gtest/gtest.h>

#include <fstream>

#include "doctor/doctor_checks.h"
#include "doctor/doctor_probes.h"
#include "doctor/doctor_report.h"
#include "doctor/doctor_test_facts.h"
#include "test_support.h"
#include "toolchain/ptoas_version.h"

namespace portcheck::doctor {
namespace {

using nlohmann::json;

TEST(DoctorChecks, AHealthyMachineReachesTheSimulatorWithNoFixes) {
  std::vector<Check> checks = judge(healthyFacts());
  for (const Check& c : checks) {
    EXPECT_EQ(c.state, CheckState::Ok) << c.id << ": " << c.found;
    EXPECT_TRUE(c.fix.empty()) << c.id;
  }
  EXPECT_EQ(reachedLevel(checks), Level::Simulator);
  EXPECT_NE(find(checks, "kernels.ptoas").found.find("PyPTO pins v0.57"), std::string::npos);
}

TEST(DoctorChecks, Bf16AsIeeeHalfStopsTheSimulatorLevelAndSaysHowToFixIt) {
  ToolchainFacts f = healthyFacts();
  f.kernel_compiler.bf16_type_real = f.kernel_compiler.bf16_runs = false;
  std::vector<Check> checks = judge(f);
  const Check& bf16 = find(checks, "simulator.bf16");
  EXPECT_EQ(bf16.state, CheckState::Missing);
  EXPECT_NE(bf16.found.find("_Float16"), std::string::npos);
  EXPECT_NE(bf16.fix.find("__STDCPP_BFLOAT16_T__"), std::string::npos);
  EXPECT_NE(bf16.fix.find("<stdfloat>"), std::string::npos);
  EXPECT_EQ(reachedLevel(checks), Level::Kernels);
}

TEST(DoctorChecks, AMissingBuiltinsRuntimeIsTheBf16CheckAfterTheTypeIsReal) {
  ToolchainFacts f = healthyFacts();
  f.kernel_compiler.bf16_runs = false;
  f.kernel_compiler.bf16_error = "a program converting to BF16 does not link: undefined reference to `__truncsfbf2'";
  std::vector<Check> checks = judge(f);
  const Check& bf16 = find(checks, "simulator.bf16");
  EXPECT_EQ(bf16.state, CheckState::Missing);
  EXPECT_NE(bf16.found.find("__truncsfbf2"), std::string::npos);
  EXPECT_NE(bf16.fix.find("libclang_rt.builtins"), std::string::npos);
}

TEST(DoctorChecks, NoKernelCompilerNamesTheNameTheRuntimeCalls) {
  ToolchainFacts f = healthyFacts();
  f.kernel_compiler = {};
  std::vector<Check> checks = judge(f);
  const Check& cxx = find(checks, "simulator.kernel_compiler");
  EXPECT_EQ(cxx.state, CheckState::Missing);
  EXPECT_NE(cxx.found.find("no g++-15 on PATH"), std::string::npos);
  EXPECT_NE(cxx.fix.find("clang++ >= 17"), std::string::npos);
  // Never compiled without a compiler: not checked, and said so.
  EXPECT_EQ(find(checks, "simulator.cpu_headers").state, CheckState::Skipped);
  EXPECT_EQ(find(checks, "simulator.cpu_headers").found, "not checked: no kernel compiler");
  EXPECT_EQ(reachedLevel(checks), Level::Kernels);
}

TEST(DoctorChecks, OldTorchAndMissingRuntimeModulesAreEachNamedWithTheirFix) {
  ToolchainFacts f = healthyFacts();
  f.probe["torch"] = {{"ok", true}, {"version", "1.13.1"}, {"uint16", false}};
  f.probe["task_interface"] = {{"ok", false}, {"error", "ModuleNotFoundError: No module named '_task_interface'"}};
  f.probe["cloudpickle"] = {{"ok", false}, {"error", "ModuleNotFoundError: No module named 'cloudpickle'"}};
  std::vector<Check> checks = judge(f);
  const Check& torch = find(checks, "simulator.torch");
  EXPECT_EQ(torch.state, CheckState::Missing);
  EXPECT_NE(torch.found.find("1.13.1"), std::string::npos);
  EXPECT_EQ(torch.fix, "venv/bin/python -m pip install 'torch>=2.3'");
  EXPECT_EQ(find(checks, "simulator.native").found, "ModuleNotFoundError: No module named '_task_interface'");
  EXPECT_EQ(find(checks, "simulator.cloudpickle").fix, "venv/bin/python -m pip install cloudpickle");
  // torch 1.13 still imports, so the compile levels stay reachable.
  EXPECT_EQ(find(checks, "passes.torch").state, CheckState::Ok);
  EXPECT_EQ(reachedLevel(checks), Level::Kernels);
}

TEST(DoctorChecks, PtoasOffItsPinIsAWarningThatKeepsTheLevel) {
  ToolchainFacts f = healthyFacts();
  f.ptoas.version = "0.27";
  std::vector<Check> checks = judge(f);
  const Check& ptoas = find(checks, "kernels.ptoas");
  EXPECT_EQ(ptoas.state, CheckState::Warning);
  EXPECT_NE(ptoas.fix.find("install ptoas v0.57"), std::string::npos);
  EXPECT_EQ(reachedLevel(checks), Level::Simulator);
}

TEST(DoctorChecks, NoPtoasStopsAtThePassesLevel) {
  ToolchainFacts f = healthyFacts();
  f.toolchain.ptoas.clear();
  f.toolchain.ptoas_why_not = "no ptoas on PATH and PTOAS_ROOT is not set";
  f.ptoas = {false, "", "", "v0.57"};
  std::vector<Check> checks = judge(f);
  EXPECT_EQ(find(checks, "kernels.ptoas").state, CheckState::Missing);
  EXPECT_EQ(reachedLevel(checks), Level::Passes);
}

TEST(DoctorChecks, PtoIsaOffThePinSaysWhereAndWhich) {
  ToolchainFacts f = healthyFacts();
  f.probe["pto_isa"]["head"] = "3186c38100000000000000000000000000000000";
  f.probe["pto_isa"]["ok"] = false;
  std::vector<Check> checks = judge(f);
  const Check& isa = find(checks, "simulator.pto_isa");
  EXPECT_EQ(isa.state, CheckState::Missing);
  EXPECT_NE(isa.found.find("is at 3186c3810000, the pin is cd4a3d3f7a1a"), std::string::npos);
  EXPECT_NE(isa.fix.find("cd4a3d3f7a1a27fcfe536f617e9bca3008929664"), std::string::npos);
}

TEST(DoctorChecks, NoCheckoutLeavesNothingReachedAndThePythonChecksItPreventedSkipped) {
  ToolchainFacts f;
  f.toolchain.python = "python3";
  f.toolchain.why_not = "looked in /opt/pypto (../pypto); it is not a PyPTO checkout with python/pypto/";
  f.probe_error = "no PyPTO checkout";
  std::vector<Check> checks = judge(f);
  EXPECT_EQ(find(checks, "passes.checkout").state, CheckState::Missing);
  EXPECT_NE(find(checks, "passes.checkout").fix.find("--pypto DIR"), std::string::npos);
  // The interpreter was never run (python3 may well be installed): skipped, with the reason.
  const Check& python = find(checks, "passes.python");
  EXPECT_EQ(python.state, CheckState::Skipped);
  EXPECT_EQ(python.found, "python3: not checked: no PyPTO checkout to run it with (see above)");
  EXPECT_EQ(find(checks, "passes.import").state, CheckState::Skipped);
  EXPECT_EQ(find(checks, "simulator.simpler").state, CheckState::Skipped);
  EXPECT_NE(find(checks, "simulator.simpler").found.find("not checked"), std::string::npos);
  EXPECT_FALSE(reachedLevel(checks).has_value());
  DoctorReport report;
  report.checks = checks;
  std::string text = doctorText(report);
  EXPECT_NE(text.find("SKIPPED  Python interpreter"), std::string::npos) << text;
  EXPECT_EQ(text.find("MISSING  Python interpreter"), std::string::npos) << text;
  EXPECT_NE(doctorJson(report).find("\"state\": \"skipped\""), std::string::npos);
}

TEST(DoctorChecks, AnInterruptedProbeIsSaidSoNotMissing) {
  ToolchainFacts f = healthyFacts();
  f.probe = nlohmann::json();
  f.probe_error = "interrupted";
  f.probe_interrupted = true;
  std::vector<Check> checks = judge(f);
  EXPECT_EQ(find(checks, "passes.python").state, CheckState::Skipped);
  EXPECT_EQ(find(checks, "passes.python").found, "venv/bin/python: interrupted before it answered");
  EXPECT_EQ(find(checks, "passes.torch").found, "not checked: the Python probe was interrupted");
  EXPECT_FALSE(reachedLevel(checks).has_value());
}

// Real compiler output of the probe (tests/fixtures/doctor/): clang-19 over libstdc++ 12 without the
// BF16 pieces, and GCC 12, which rejects the pto-isa CPU headers.
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(PORTCHECK_FIXTURES_DIR) + "/doctor/" + name);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(DoctorHeaderProbe, ClangWithoutStdfloatCompilesTheHeadersButHasNoRealBf16) {
  KernelCompilerFacts k;
  judgeHeaderProbe(1, fixture("clang19_bf16_as_half.txt"), k);
  EXPECT_TRUE(k.headers_ok);
  EXPECT_FALSE(k.bf16_type_real);
}

TEST(DoctorHeaderProbe, Gcc12FailsOnTheHeadersAndSaysWhere) {
  KernelCompilerFacts k;
  judgeHeaderProbe(1, fixture("gcc12_headers.txt"), k);
  EXPECT_FALSE(k.headers_ok);
  EXPECT_NE(k.headers_error.find("TReduceIdx.hpp:27:23: error: static assertion failed"), std::string::npos);
}

TEST(DoctorHeaderProbe, ACleanCompileMeansHeadersAndBf16TypeAreFine) {
  KernelCompilerFacts k;
  judgeHeaderProbe(0, "", k);
  EXPECT_TRUE(k.headers_ok);
  EXPECT_TRUE(k.bf16_type_real);
}

TEST(DoctorPtoas, VersionIsReadFromItsOutputAndThePinFromVersionsEnv) {
  EXPECT_EQ(ptoasVersion("ptoas 0.27\n"), "0.27");
  EXPECT_EQ(ptoasVersion("PTOAS version v0.57.1 (abc)"), "0.57.1");
  EXPECT_EQ(ptoasVersion("no digits here"), "");
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "toolchain");
  std::ofstream(dir.path() / "toolchain" / "versions.env") << "# comment\nPTOAS_VERSION=v0.57\nPTOAS_SHA256_X86_64=ab\n";
  EXPECT_EQ(pinnedPtoasVersion(dir.path()), "v0.57");
  EXPECT_EQ(pinnedPtoasVersion(dir.path() / "nowhere"), "");
}

TEST(DoctorReport, JsonCarriesEveryCheckAndTheSelfTestAndHealthFollowsIt) {
  DoctorReport r;
  r.tool_version = "x";
  r.platform = "a2a3sim";
  r.checks = judge(healthyFacts());
  r.reached = reachedLevel(r.checks);
  r.self_test_ran = true;
  r.self_test = {{"vector_bf16", "vector, BF16 in and out", "wrong", "GOLD001", "c: 8000 of 8192 elements", 1.5}};
  json j = json::parse(doctorJson(r));
  EXPECT_EQ(j["schema"], "port-check-doctor/1");
  EXPECT_EQ(j["reached"], "simulator");
  EXPECT_EQ(j["checks"].size(), r.checks.size());
  EXPECT_EQ(j["self_test"]["cases"][0]["verdict"], "wrong");
  EXPECT_FALSE(j["healthy"].get<bool>());
  EXPECT_NE(doctorText(r).find("WRONG"), std::string::npos);
  // A kind longer than the others' column does not run into its detail.
  r.self_test.push_back({"vector_carried_column", "vector, a [64, 1] column carried across loop iterations (a running max)",
                         "wrong", "GOLD001", "c: 2752 of 4096 elements", 4.1});
  EXPECT_NE(doctorText(r).find("(a running max)  GOLD001: c: 2752"), std::string::npos) << doctorText(r);
  r.self_test.pop_back();
  r.self_test[0].verdict = "pass";
  EXPECT_TRUE(r.healthy());
  r.asked = Level::Simulator;
  r.reached = Level::Kernels;
  EXPECT_FALSE(r.healthy());
}

}  // namespace
}  // namespace portcheck::doctor
