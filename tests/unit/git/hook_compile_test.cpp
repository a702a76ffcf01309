// hook.compile: the pre-commit hook compiles the STAGED tree of each touched project (a copy under the
// cache, never the working files), maps findings back to repository paths and replays unchanged
// trees from the cache. The compiler is the stand-in interpreter of the compile tests.
#include <gtest/gtest.h>

#include "git_repo.h"

namespace portcheck::hook_compile_test {
namespace {

namespace fs = std::filesystem;
using test::GitRepo;
using test::singleQuoted;

constexpr const char* kMode = "projects/p/pypto_src/FAKE_MODE";
constexpr const char* kGoldenPath = "projects/p/pypto_src/golden.py";

class HookCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.write("pypto/python/pypto/__init__.py", "");  // a checkout the toolchain discovery accepts
    repo.write(".gitignore", "pypto/\n");
    repo.write("port-check.json", R"({"hook": {"compile": true}})");
    repo.write(kGoldenPath, test::kGolden);
    repo.write(kMode, "ok\n");
    repo.git("add -A");
    repo.git("commit -q -m base");
    ASSERT_EQ(repo.portCheck("hook install").exit_code, 0);
  }
  // The stand-in compiler as the toolchain.
  std::string toolchainEnv() const {
    return "PYPTO_ROOT=" + singleQuoted((repo.root() / "pypto").string()) +
           " PYPTO_PYTHON=" + singleQuoted(test::fakeCompilePython()) + " ";
  }
  test::Shell commit(const std::string& message) const {
    return repo.run(toolchainEnv() + "git commit -m " + singleQuoted(message));
  }
  void stageMode(const std::string& staged, const std::string& on_disk) const {
    repo.write(kMode, staged + "\n");
    repo.git(std::string("add ") + kMode);
    repo.write(kMode, on_disk + "\n");
  }
  GitRepo repo;
};

TEST_F(HookCompile, AStagedCompileErrorBlocksEvenWhenTheWorkingFilesCompile) {
  stageMode("load_error", "ok");
  test::Shell r = commit("broken");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("projects/p/pypto_src/golden.py:3: error: p: loading the program failed"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("git commit --no-verify"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(".port-check-cache/staged"), std::string::npos) << "the staged copy leaked:\n" << r.out;
  EXPECT_EQ(r.out.find(repo.root().string()), std::string::npos) << "absolute paths leaked:\n" << r.out;
  EXPECT_EQ(repo.commits(), 1);
  EXPECT_EQ(repo.read(kMode), "ok\n");  // nothing touched
  EXPECT_EQ(repo.staged(kMode), "load_error\n");
}

TEST_F(HookCompile, AStagedTreeThatCompilesIsAllowedEvenWhenTheWorkingFilesDoNot) {
  stageMode("ok staged-edit", "load_error");
  test::Shell r = commit("fine");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(repo.commits(), 2);
  EXPECT_EQ(repo.read(kMode), "load_error\n");
}

TEST_F(HookCompile, TheSameStagedTreeIsReplayedFromTheCacheAndTheCacheIsIgnoredByGit) {
  stageMode("load_error", "load_error");
  test::Shell first = commit("one");
  ASSERT_NE(first.exit_code, 0) << first.out;
  // Same staged content again: same copy, same cache key, no second compile.
  auto staged_before = std::distance(fs::directory_iterator(repo.root() / ".port-check-cache/staged"), {});
  test::Shell second = repo.run(toolchainEnv() + singleQuoted(PORTCHECK_BINARY) + " hook run --format json");
  EXPECT_EQ(second.exit_code, 1) << second.out;
  EXPECT_NE(second.out.find("1 replayed from cache"), std::string::npos) << second.out;
  EXPECT_EQ(std::distance(fs::directory_iterator(repo.root() / ".port-check-cache/staged"), {}), staged_before);
  // The cache inside the work tree is not something to commit.
  EXPECT_EQ(repo.run("git status --porcelain --untracked-files=all -- .port-check-cache").out, "");
}

TEST_F(HookCompile, WithoutAToolchainTheCommitProceedsAndSaysTheCompileWasSkipped) {
  repo.write(kGoldenPath, std::string(test::kGolden) + "# edit\n");
  repo.git(std::string("add ") + kGoldenPath);
  test::Shell r = repo.run("PYPTO_ROOT=" + singleQuoted((repo.temp() / "nowhere").string()) + " git commit -m edit");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("compile stage skipped: no PyPTO toolchain"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[TOOL003]"), std::string::npos) << r.out;
  EXPECT_EQ(repo.commits(), 2);
}

TEST_F(HookCompile, WithoutAToolchainAndOnToolErrorBlockTheCommitIsBlocked) {
  repo.write("port-check.json", R"({"hook": {"compile": true, "on_tool_error": "block"}})");
  repo.write(kGoldenPath, std::string(test::kGolden) + "# edit\n");
  repo.git("add port-check.json " + std::string(kGoldenPath));
  test::Shell r = repo.run("PYPTO_ROOT=" + singleQuoted((repo.temp() / "nowhere").string()) + " git commit -m edit");
  EXPECT_EQ(r.exit_code, 1) << r.out;  // git reports the hook's failure as 1
  EXPECT_NE(r.out.find("cannot compile: no PyPTO toolchain"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[COMP909]"), std::string::npos) << r.out;
  EXPECT_EQ(repo.commits(), 1);
}

}  // namespace
}  // namespace portcheck::hook_compile_test
