// port-check eval through the binary: attempts at a task built from the row_softmax ports (the attempt as
// written, the naive twin as the task's baseline) scored against the stand-in interpreter
// (tests/fixtures/run/fake-run-python.sh), which answers each run with a recorded real a2a3sim result: a
// passing attempt passes; a constant output, host computation, an imported reference and the naive form
// submitted as it is fail with the reason; a bad task or a missing toolchain is exit 2 with why.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "golden/run_workspace.h"
#include "test_support.h"

namespace portcheck::eval_command_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void copyTree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  fs::remove_all(to / "__pycache__");
}

struct EvalWorkspace {
  test::TempDir ws;
  EvalWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("pypto/python/pypto/__init__.py", "");
    ws.write("pypto/runtime/simpler_setup/__init__.py", "");
    const fs::path projects = fs::path(test::sourceDir()) / "projects";
    ws.write("evals/tasks/softmax_rows/task.json",
             R"({"schema": "port-check-eval-task/1", "kind": "row-reduction", "title": "Row softmax",
                 "entry": "row_softmax"})");
    ws.write("evals/tasks/softmax_rows/task.md", "Port original/ to projects/softmax_rows.\n");
    copyTree(projects / "row_softmax/original", ws / "evals/tasks/softmax_rows/original");
    ws.write("evals/tasks/softmax_rows/reference/golden.py", test::readFile(projects / "row_softmax/pypto_src/golden.py"));
    copyTree(projects / "row_softmax_naive/pypto_src", ws / "evals/tasks/softmax_rows/naive/pypto_src");
  }
  // attempts/<name>: a copy of `port`'s pypto_src/ whose runs answer with the recorded result `run`.
  fs::path attempt(const std::string& name, const std::string& port, const std::string& run) {
    const fs::path dir = ws / ("attempts/" + name);
    copyTree(fs::path(test::sourceDir()) / "projects" / port / "pypto_src", dir / "pypto_src");
    ws.write("attempts/" + name + "/pypto_src/FAKE_RUN", run + "\n");
    return dir;
  }
  std::string args() const {
    return "--pypto '" + (ws / "pypto").string() + "' --python '" + test::fakeRunPython() + "' ";
  }
  json eval(const std::string& attempt, int* exit_code = nullptr) {
    test::CommandResult r = test::runBinary(args() + "--format json eval evals/tasks/softmax_rows attempts/" + attempt, ws.path());
    if (exit_code) *exit_code = r.exit_code;
    json j = json::parse(r.out, nullptr, false);
    return j.is_discarded() ? json::object() : j;
  }
};

std::string checkState(const json& result, const std::string& name) {
  for (const json& c : result["checks"])
    if (c["name"] == name) return c["state"];
  return "absent";
}

TEST(EvalCommand, ACorrectFasterAttemptPassesOnBothSimulators) {
  EvalWorkspace w;
  w.attempt("good", "row_softmax", "real_sim_contract_row_softmax");
  int exit_code = -1;
  json j = w.eval("good", &exit_code);
  ASSERT_EQ(j.value("schema", ""), "port-check-eval/1") << j.dump(2);
  const json& r = j["results"][0];
  EXPECT_EQ(r["verdict"], "passed") << r.dump(2);
  EXPECT_EQ(exit_code, 0);
  for (const char* check : {"lint", "compile (a2a3)", "compile (a5)", "contract (a2a3sim)", "contract (a5sim)", "gaming", "speed"})
    EXPECT_EQ(checkState(r, check), "pass") << check << "\n" << r.dump(2);
  ASSERT_TRUE(r["device_us"]["speedup"].is_number()) << r.dump(2);
  EXPECT_GT(r["device_us"]["speedup"].get<double>(), 1.0);
  EXPECT_EQ(j["summary"]["passed"], 1);
  // The document follows its published schema (docs/schema/port-check-eval.schema.json).
  w.ws.write("eval.json", j.dump());
  test::CommandResult valid = test::runShell(
      "/usr/bin/python3 -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), "
      "json.load(open(sys.argv[2]))); print(\"valid\")' '" + (w.ws / "eval.json").string() + "' '" +
      test::sourceDir() + "/docs/schema/port-check-eval.schema.json' 2>&1");
  EXPECT_EQ(valid.out, "valid\n") << valid.out;
}

TEST(EvalCommand, AConstantOutputFailsItsContractAndTheGamingCheck) {
  EvalWorkspace w;
  w.attempt("constant", "row_softmax", "real_sim_gamed_constant_out");
  int exit_code = -1;
  json r = w.eval("constant", &exit_code)["results"][0];
  EXPECT_EQ(r["verdict"], "failed") << r.dump(2);
  EXPECT_EQ(exit_code, 1);
  EXPECT_EQ(r["first_failing"], "contract (a2a3sim)") << r.dump(2);
  EXPECT_EQ(checkState(r, "gaming"), "fail") << r.dump(2);
}

TEST(EvalCommand, HostComputationFailsTheLintCheckWithItsRule) {
  EvalWorkspace w;
  fs::path dir = w.attempt("host", "row_softmax", "real_sim_contract_row_softmax");
  std::string orchestration = test::readFile(dir / "pypto_src/orchestration.py");
  const std::string ret = "    return out";
  ASSERT_NE(orchestration.find(ret), std::string::npos) << orchestration;
  orchestration.replace(orchestration.find(ret), ret.size(), "    out.copy_(torch.softmax(x, dim=-1))\n" + ret);
  w.ws.write("attempts/host/pypto_src/orchestration.py", "import torch\n" + orchestration);
  json r = w.eval("host")["results"][0];
  EXPECT_EQ(r["verdict"], "failed") << r.dump(2);
  EXPECT_EQ(r["first_failing"], "lint");
  EXPECT_NE(r["reason"].get<std::string>().find("DSL123"), std::string::npos) << r.dump(2);
}

TEST(EvalCommand, AnAttemptImportingTheReferenceFails) {
  EvalWorkspace w;
  fs::path dir = w.attempt("imports", "row_softmax", "real_sim_contract_row_softmax");
  w.ws.write("attempts/imports/pypto_src/orchestration.py",
             "from golden import compute_golden\n" + test::readFile(dir / "pypto_src/orchestration.py"));
  json r = w.eval("imports")["results"][0];
  EXPECT_EQ(r["verdict"], "failed") << r.dump(2);
  EXPECT_EQ(r["first_failing"], "lint");
  EXPECT_NE(r["reason"].get<std::string>().find("PROJ006"), std::string::npos) << r.dump(2);
}

TEST(EvalCommand, TheNaiveFormSubmittedAsItIsIsNotFaster) {
  EvalWorkspace w;
  w.attempt("naive", "row_softmax_naive", "real_sim_contract_row_softmax");
  json r = w.eval("naive")["results"][0];
  EXPECT_EQ(r["verdict"], "failed") << r.dump(2);
  EXPECT_EQ(r["first_failing"], "speed") << r.dump(2);
  EXPECT_NE(r["reason"].get<std::string>().find("1.00x"), std::string::npos) << r.dump(2);
}

TEST(EvalCommand, TheAgentsOwnGoldenIsNeverTheOneRun) {
  // An attempt whose golden.py would pass anything: the scratch workspace holds the task's reference.
  EvalWorkspace w;
  fs::path dir = w.attempt("lenient", "row_softmax", "real_sim_contract_row_softmax");
  w.ws.write("attempts/lenient/pypto_src/golden.py", "RTOL = 1.0\nATOL = 1.0e9\n");
  test::CommandResult r = test::runBinary(w.args() + "eval --keep evals/tasks/softmax_rows attempts/lenient", w.ws.path());
  bool found = false;
  for (const auto& e : fs::recursive_directory_iterator(w.ws / ".port-check-cache/eval"))
    if (e.path().filename() == "golden.py" && e.path().parent_path().parent_path().filename() == "softmax_rows") {
      found = true;
      EXPECT_EQ(test::readFile(e.path()), test::readFile(w.ws / "evals/tasks/softmax_rows/reference/golden.py"));
    }
  EXPECT_TRUE(found) << r.out;
  EXPECT_NE(r.out.find("1 of 1 attempt(s) passed"), std::string::npos) << r.out;
}

TEST(EvalCommand, ASetRunScoresEveryTaskAndAMissingAttemptFails) {
  EvalWorkspace w;
  test::CommandResult r =
      test::runBinary(w.args() + "--format json eval --set evals/tasks --attempts attempts -o results.json", w.ws.path());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  json j = json::parse(test::readFile(w.ws / "results.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_EQ(j["results"][0]["first_failing"], "sources");
  EXPECT_NE(j["results"][0]["reason"].get<std::string>().find("no attempt"), std::string::npos);
}

TEST(EvalCommand, BadInputIsExitTwoWithWhy) {
  EvalWorkspace w;
  w.attempt("good", "row_softmax", "real_sim_contract_row_softmax");
  test::CommandResult none = test::runBinary(w.args() + "eval", w.ws.path(), true);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.out.find("eval needs TASK ATTEMPT"), std::string::npos) << none.out;
  w.ws.write("evals/tasks/broken/task.json", R"({"schema": "port-check-eval-task/1", "kind": "x"})");
  test::CommandResult broken = test::runBinary(w.args() + "eval evals/tasks/broken attempts/good", w.ws.path(), true);
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.out.find("\"title\" must be a non-empty string"), std::string::npos) << broken.out;
  test::CommandResult empty = test::runBinary(w.args() + "eval --set attempts --attempts attempts", w.ws.path(), true);
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.out.find("no task under attempts"), std::string::npos) << empty.out;
}

TEST(EvalCommand, WithoutAToolchainNothingIsJudgedAndTheExitIsTwo) {
  EvalWorkspace w;
  w.attempt("good", "row_softmax", "real_sim_contract_row_softmax");
  test::CommandResult r = test::runBinary("--pypto '" + (w.ws / "nowhere").string() +
                                              "' --format json eval evals/tasks/softmax_rows attempts/good",
                                          w.ws.path());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["results"][0]["verdict"], "error");
  EXPECT_EQ(j["results"][0]["first_failing"], "toolchain");
}

}  // namespace
}  // namespace portcheck::eval_command_test
