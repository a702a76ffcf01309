// port-check verify through the binary (docs/contract.md): lint, then every contract case on both
// simulators, each platform's stages named for it; the fake interpreter answers each run with a recorded
// contract result (tests/fixtures/run/results/contract_*.json).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden/run_workspace.h"
#include "test_support.h"

namespace portcheck::verify_command_test {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(VerifyCommand, RunsTheContractOnBothSimulatorsAndNamesTheFailingCase) {
  test::CliWorkspace c;
  c.project("softmax", "contract_large_fails");
  auto r = test::runBinary("verify --format json --no-kernel-compile " + c.args() + "projects/softmax", c.ws.path());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["golden"].size(), 2u) << r.out;
  EXPECT_EQ(j["golden"][0]["platform"], "a2a3sim");
  EXPECT_EQ(j["golden"][1]["platform"], "a5sim");
  EXPECT_EQ(j["golden"][0]["contract"]["cases"].size(), 6u);
  std::vector<std::string> stages;
  for (const auto& s : j["run"]["stages"]) stages.push_back(s["name"]);
  EXPECT_NE(std::find(stages.begin(), stages.end(), "lint"), stages.end()) << r.out;
  EXPECT_NE(std::find(stages.begin(), stages.end(), "run (a2a3)"), stages.end()) << r.out;
  EXPECT_NE(std::find(stages.begin(), stages.end(), "run (a5)"), stages.end()) << r.out;
  EXPECT_TRUE(contains(r.out, "output 'out' of softmax in case large/20260301 differs from the golden on a5sim"))
      << r.out;
}

TEST(VerifyCommand, PlatformNarrowsItToOneSimulatorAndTheTextHasTheCaseTable) {
  test::CliWorkspace c;
  c.project("softmax", "contract_large_fails");
  auto r = test::runBinary("verify --platform a5 --no-kernel-compile " + c.args() + "projects/softmax", c.ws.path());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "large/1234")) << r.out;
  EXPECT_TRUE(contains(r.out, "cosine")) << r.out;
  EXPECT_FALSE(contains(r.out, "a2a3sim")) << r.out;
}

TEST(VerifyCommand, AWriteOutsideTheOutputFailsEvenWhenEveryCasePasses) {
  test::CliWorkspace c;
  c.project("softmax", "contract_overrun");
  auto r = test::runBinary("verify --platform a2a3 --no-kernel-compile " + c.args() + "projects/softmax", c.ws.path());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "[GOLD023]")) << r.out;
}

TEST(VerifyCommand, TheRunIsAskedToKeepFrozenGoldensUnderTheCache) {
  test::CliWorkspace c;
  c.project("softmax", "args");
  auto r = test::runBinary("verify --platform a2a3 --no-kernel-compile --no-cache " + c.args() + "projects/softmax",
                           c.ws.path());
  std::string logs;  // the run's whole output is kept beside its result: <cache>/run/<name>-<hash>/<platform>/run.log
  for (const auto& e : std::filesystem::recursive_directory_iterator(c.ws / ".port-check-cache/run"))
    if (e.path().filename() == "run.log") logs += test::readFile(e.path().string());
  EXPECT_TRUE(contains(logs, "--frozen-dir " + (c.ws / ".port-check-cache/golden").string())) << logs << r.out;
}

TEST(VerifyCommand, WithoutAToolchainItSaysNothingRanOnceAndExitsTwo) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  ws.write("projects/p/pypto_src/golden.py", "x = 1\n");
  auto r = test::runBinary("verify --format json --no-kernel-compile --pypto '" + (ws / "nowhere").string() +
                               "' projects/p",
                           ws.path());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out);
  int comp909 = 0;
  for (const auto& d : j["diagnostics"]) comp909 += d["rule"] == "COMP909";
  EXPECT_EQ(comp909, 1) << r.out;
}

TEST(VerifyCommand, NoPathIsAToolError) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  auto r = test::runBinary("verify", ws.path());
  EXPECT_EQ(r.exit_code, 2) << r.out;
}

}  // namespace
}  // namespace portcheck::verify_command_test
