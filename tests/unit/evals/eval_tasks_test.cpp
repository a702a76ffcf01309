// The task set of evals/tasks/: every task loads (task.json, prompt, original, reference, naive form),
// its prompt names the entry the reference calls, and the naive form under the reference lints
// without an error. Bad task folders are refused with why (eval_task.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "evals/eval_task.h"
#include "evals/eval_workspace.h"
#include "test_support.h"

namespace portcheck::eval_tasks_test {
namespace {

namespace fs = std::filesystem;

TEST(EvalTasks, EveryTaskLoadsAndItsPromptNamesTheEntry) {
  std::vector<fs::path> tasks = evals::taskFolders(fs::path(test::sourceDir()) / "evals/tasks");
  ASSERT_GE(tasks.size(), 5u);
  for (const fs::path& dir : tasks) {
    SCOPED_TRACE(dir.filename().string());
    evals::LoadedTask loaded = evals::loadEvalTask(dir);
    ASSERT_TRUE(loaded.task) << loaded.error;
    EXPECT_NE(test::readFile(loaded.task->prompt).find("def " + loaded.task->entry + "("), std::string::npos);
    EXPECT_NE(test::readFile(loaded.task->reference).find("ENTRY = \"" + loaded.task->entry + "\""), std::string::npos);
  }
}

// An agent given the pack writes its port to projects/<task>/: a task named as a port of projects/
// would hand it that port (paged_attention_decode was, before it became paged_decode_gqa).
TEST(EvalTasks, NoTaskIsNamedAsAPortOfTheProjectsFolder) {
  const fs::path projects = fs::path(test::sourceDir()) / "projects";
  for (const fs::path& dir : evals::taskFolders(fs::path(test::sourceDir()) / "evals/tasks"))
    EXPECT_FALSE(fs::exists(projects / dir.filename())) << dir.filename() << " is also projects/" << dir.filename();
}

TEST(EvalTasks, EachNaiveFormUnderItsReferenceLintsWithoutAnError) {
  for (const fs::path& dir : evals::taskFolders(fs::path(test::sourceDir()) / "evals/tasks")) {
    SCOPED_TRACE(dir.filename().string());
    evals::LoadedTask loaded = evals::loadEvalTask(dir);
    ASSERT_TRUE(loaded.task) << loaded.error;
    test::TempDir scratch;
    evals::ScratchWorkspace ws =
        evals::makeScratchWorkspace(*loaded.task, loaded.task->naive.parent_path(), scratch / "ws", {});
    ASSERT_FALSE(ws.root.empty()) << ws.error;
    test::CommandResult r = test::runBinary("--format json lint --no-cache projects/" + loaded.task->name, ws.root);
    nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    for (const nlohmann::json& d : j["diagnostics"]) EXPECT_NE(d["severity"], "error") << d.dump();
    EXPECT_EQ(r.exit_code, 0);
  }
}

TEST(EvalTasks, ABadTaskFolderIsRefusedWithWhy) {
  test::TempDir t;
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("no task.json"), std::string::npos);
  t.write("task.json", "[1]");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("not a JSON object"), std::string::npos);
  t.write("task.json", R"({"schema": "other/1"})");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("schema must be"), std::string::npos);
  t.write("task.json", R"({"schema": "port-check-eval-task/1", "kind": "k", "title": "t", "entry": "e", "min_speedup": -1})");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("min_speedup"), std::string::npos);
  t.write("task.json", R"({"schema": "port-check-eval-task/1", "kind": "k", "title": "t", "entry": "e"})");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("task.md is missing"), std::string::npos);
  t.write("task.md", "x\n");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("original/ folder is missing"), std::string::npos);
  t.write("original/a.py", "x = 1\n");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("reference golden is missing"), std::string::npos);
  t.write("reference/golden.py", "x = 1\n");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("naive form has no orchestration.py"), std::string::npos);
  t.write("naive/pypto_src/orchestration.py", "x = 1\n");
  evals::LoadedTask ok = evals::loadEvalTask(t.path());
  ASSERT_TRUE(ok.task) << ok.error;
  EXPECT_EQ(ok.task->min_speedup, 1.0);
  EXPECT_TRUE(ok.task->assume.empty());
  // Run-time values for the speed check's schedule: NAME: integer, anything else refused with why.
  t.write("task.json", R"({"schema": "port-check-eval-task/1", "kind": "k", "title": "t", "entry": "e",
                           "assume": {"seq_lens": 96, "block_table": 0}})");
  ok = evals::loadEvalTask(t.path());
  ASSERT_TRUE(ok.task) << ok.error;
  ASSERT_EQ(ok.task->assume.size(), 2u);
  EXPECT_EQ(ok.task->assume[0], (std::pair<std::string, long long>{"block_table", 0}));
  EXPECT_EQ(ok.task->assume[1], (std::pair<std::string, long long>{"seq_lens", 96}));
  t.write("task.json", R"({"schema": "port-check-eval-task/1", "kind": "k", "title": "t", "entry": "e",
                           "assume": {"seq_lens": "long"}})");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("\"seq_lens\" must be an integer"), std::string::npos);
  t.write("task.json", R"({"schema": "port-check-eval-task/1", "kind": "k", "title": "t", "entry": "e",
                           "assume": [1]})");
  EXPECT_NE(evals::loadEvalTask(t.path()).error.find("must be an object"), std::string::npos);
}

}  // namespace
}  // namespace portcheck::eval_tasks_test
