// doctor --run's self-test driver: every shipped program runs through the run stage and gets a verdict
// with a one-line reason. The stand-in interpreter (tests/fixtures/run/fake-run-python.sh) answers each
// run from a recorded result named in FAKE_RUN beside the programs.
#include <gtest/gtest.h>

#include "doctor/self_test.h"
#include "golden/run_workspace.h"
#include "test_support.h"

namespace portcheck::doctor {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A run workspace (golden/run_workspace.h) whose adapter folder holds the self-test programs, every run
// answered with the recorded result `fake_run`.
struct SelfTestWorkspace : test::RunWorkspace {
  explicit SelfTestWorkspace(const std::string& fake_run) : RunWorkspace(20s) {
    for (const SelfTestProgram& p : selfTestPrograms())
      ws.write(std::string("adapter/selftest/") + p.program + ".py", "# program\n");
    ws.write("adapter/selftest/FAKE_RUN", fake_run + "\n");
  }
};

TEST(SelfTest, EveryProgramRunsAndPassesOnAWorkingSimulator) {
  SelfTestWorkspace w("pass");
  std::vector<SelfTestCase> cases = runSelfTest(w.settings, Platform::A2A3);
  ASSERT_EQ(cases.size(), selfTestPrograms().size());
  for (const SelfTestCase& c : cases) {
    EXPECT_EQ(c.verdict, "pass") << c.program << ": " << c.detail;
    EXPECT_TRUE(c.rule.empty()) << c.program;
  }
  EXPECT_EQ(cases.front().program, "vector_fp32");
  EXPECT_TRUE(fs::exists(w.settings.cache_root / "run")) << "the runs have their own folders";
}

TEST(SelfTest, AWrongResultCarriesTheFiguresOfTheFailingOutput) {
  SelfTestWorkspace w("wrong_axis");
  std::vector<SelfTestCase> cases = runSelfTest(w.settings, Platform::A5);
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(cases[0].verdict, "wrong");
  EXPECT_EQ(cases[0].rule, "GOLD001");
  EXPECT_NE(cases[0].detail.find("elements out of tolerance"), std::string::npos) << cases[0].detail;
  EXPECT_NE(cases[0].detail.find("max abs error"), std::string::npos) << cases[0].detail;
}

TEST(SelfTest, AFailureBeforeAComparisonIsOneLineWithItsRule) {
  SelfTestWorkspace w("gcc12");
  std::vector<SelfTestCase> cases = runSelfTest(w.settings, Platform::A2A3);
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(cases[0].verdict, "failed");
  EXPECT_EQ(cases[0].rule, "GOLD011");
  EXPECT_EQ(cases[0].detail.find('\n'), std::string::npos) << cases[0].detail;
  EXPECT_NE(cases[0].detail.find("too old for the pto-isa CPU headers"), std::string::npos) << cases[0].detail;
}

TEST(SelfTest, PtoasRejectingTheMixedKernelIsNamedByItsOwnErrorLine) {
  // The real result of mixed_bf16 with ptoas 0.27 (tests/fixtures/run/results/real_sim_mixed_ptoas_rejects.json):
  // PyPTO wraps the ptoas error in a table over several lines.
  SelfTestWorkspace w("real_sim_mixed_ptoas_rejects");
  std::vector<SelfTestCase> cases = runSelfTest(w.settings, Platform::A2A3);
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(cases[0].verdict, "failed");
  EXPECT_EQ(cases[0].detail.rfind("error: custom op 'pto.aic_initialize_pipe' expected 'nosplit'", 0), 0u)
      << cases[0].detail;
}

}  // namespace
}  // namespace portcheck::doctor
