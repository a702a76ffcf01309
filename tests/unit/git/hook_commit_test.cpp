// End to end: `port-check hook install` in a real repository, then real `git commit`s that the hook
// must block or let through according to the STAGED content, never the working files.
#include <gtest/gtest.h>

#include "git_repo.h"

namespace portcheck {
namespace {

using test::GitRepo;
using test::kBad;
using test::kGolden;
using test::kGood;

constexpr const char* kKernel = "projects/p/pypto_src/kernel.py";
constexpr const char* kGoldenPath = "projects/p/pypto_src/golden.py";

// A repository with one valid committed project and the hook installed.
class HookCommit : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.write(kGoldenPath, kGolden);
    repo.write(kKernel, kGood);
    repo.write("README.md", "ports\n");
    repo.git("add -A");
    repo.git("commit -q -m base");
    test::Shell install = repo.portCheck("hook install");
    ASSERT_EQ(install.exit_code, 0) << install.out;
  }
  test::Shell commit(const std::string& args = "-m change") const { return repo.git("commit " + args, false); }

  GitRepo repo;
};

TEST_F(HookCommit, WorkingFileFixedButIndexBadIsBlocked) {
  repo.write(kKernel, kBad);
  repo.git(std::string("add ") + kKernel);
  repo.write(kKernel, kGood);  // fixed on disk, not staged
  test::Shell r = commit();
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("projects/p/pypto_src/kernel.py:1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[DSL001]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("git commit --no-verify"), std::string::npos) << r.out;
  EXPECT_EQ(repo.commits(), 1);
  // Nothing was touched: the working file is still the fixed one, the index still the bad one.
  EXPECT_EQ(repo.read(kKernel), kGood);
  EXPECT_EQ(repo.staged(kKernel), kBad);
}

TEST_F(HookCommit, NamedFilesAreCheckedAlsoWhenNothingIsStaged) {
  // What `pre-commit run --all-files` does: nothing staged, every file named. A committed error fails.
  repo.write(kKernel, kBad);
  repo.git("add -A");
  repo.git("commit -q --no-verify -m broken");
  EXPECT_EQ(repo.portCheck("hook run").exit_code, 0);  // nothing staged: nothing to check
  test::Shell named = repo.portCheck(std::string("hook run README.md ") + kGoldenPath + " " + kKernel);
  EXPECT_EQ(named.exit_code, 1) << named.out;
  EXPECT_NE(named.out.find("projects/p/pypto_src/kernel.py:1:"), std::string::npos) << named.out;
  EXPECT_NE(named.out.find("[DSL001]"), std::string::npos) << named.out;
  // A named file of a clean project passes.
  repo.write(kKernel, kGood);
  repo.git("add -A");
  EXPECT_EQ(repo.portCheck(std::string("hook run ") + kGoldenPath).exit_code, 0);
}

TEST_F(HookCommit, IndexFixedButWorkingFileBadIsAllowed) {
  repo.write(kKernel, std::string(kGood) + "\n# staged edit\n");
  repo.git(std::string("add ") + kKernel);
  repo.write(kKernel, kBad);  // broken on disk, not staged
  test::Shell r = commit();
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(repo.commits(), 2);
  EXPECT_EQ(repo.read(kKernel), kBad);
}

TEST_F(HookCommit, CommitAllChecksTheWorkingFilesGitStages) {
  // `git commit -a` hands the hook a temporary index in GIT_INDEX_FILE; .git/index is still clean.
  repo.write(kKernel, kBad);
  test::Shell blocked = commit("-a -m all");
  EXPECT_NE(blocked.exit_code, 0) << blocked.out;
  EXPECT_NE(blocked.out.find("[DSL001]"), std::string::npos) << blocked.out;
  EXPECT_EQ(repo.commits(), 1);

  // And the other way round: the index is bad, but -a commits the fixed working file.
  repo.git(std::string("add ") + kKernel);
  repo.write(kKernel, std::string(kGood) + "# fixed\n");
  test::Shell allowed = commit("-a -m all");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out;
  EXPECT_EQ(repo.commits(), 2);
}

TEST_F(HookCommit, CommitOfAPathChecksOnlyWhatThatCommitRecords) {
  constexpr const char* kOther = "projects/p/pypto_src/other.py";
  repo.write(kOther, kBad);
  repo.git(std::string("add ") + kOther);  // a bad file is staged, but not part of this commit
  repo.write(kKernel, std::string(kGood) + "# edited\n");
  test::Shell allowed = commit(std::string("-m path -- ") + kKernel);
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out;
  EXPECT_EQ(repo.commits(), 2);
  EXPECT_EQ(repo.staged(kOther), kBad);  // still staged for later

  repo.write(kKernel, kBad);
  test::Shell blocked = commit(std::string("-m path -- ") + kKernel);
  EXPECT_NE(blocked.exit_code, 0) << blocked.out;
  EXPECT_NE(blocked.out.find("kernel.py:1:"), std::string::npos) << blocked.out;
  EXPECT_EQ(blocked.out.find("other.py"), std::string::npos) << blocked.out;
}

TEST_F(HookCommit, RenameIntoThePortIsChecked) {
  repo.write("scratch/draft.py", kBad);
  repo.git("add scratch/draft.py");
  repo.git("commit -q --no-verify -m draft");  // outside the checked paths: fine
  repo.git("mv scratch/draft.py projects/p/pypto_src/draft.py");
  test::Shell r = commit("-m move");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("projects/p/pypto_src/draft.py:1:"), std::string::npos) << r.out;

  repo.write("projects/p/pypto_src/draft.py", kGood);
  repo.git("add projects/p/pypto_src/draft.py");
  EXPECT_EQ(commit("-m move").exit_code, 0);
}

TEST_F(HookCommit, DeletingGoldenIsBlockedAndDeletingAKernelIsNot) {
  repo.git(std::string("rm -q ") + kGoldenPath);
  test::Shell r = commit("-m drop-golden");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("has no pypto_src/golden.py [PROJ001]"), std::string::npos) << r.out;
  repo.git(std::string("reset -q HEAD -- ") + kGoldenPath);
  repo.git(std::string("checkout -- ") + kGoldenPath);

  repo.git(std::string("rm -q ") + kKernel);
  test::Shell ok = commit("-m drop-kernel");
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
}

TEST_F(HookCommit, BinaryDataIsSkippedAndABinaryPythonFileIsAToolError) {
  repo.write("projects/p/pypto_src/weights.bin", std::string("\x00\x01\x02\xff", 4));
  repo.git("add projects/p/pypto_src/weights.bin");
  test::Shell data = commit("-m data");
  EXPECT_EQ(data.exit_code, 0) << data.out;

  // A .py that is not text cannot be checked: reported, and by default the commit proceeds.
  repo.write("projects/p/pypto_src/blob.py", std::string("x = 1\0\0", 7));
  repo.git("add projects/p/pypto_src/blob.py");
  test::Shell allowed = commit("-m blob");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out;
  EXPECT_NE(allowed.out.find("[TOOL002]"), std::string::npos) << allowed.out;
  EXPECT_NE(allowed.out.find("NOT blocked"), std::string::npos) << allowed.out;

  // With "on_tool_error": "block" the same problem stops the commit.
  repo.write("port-check.json", R"({"hook": {"on_tool_error": "block"}})");
  repo.write("projects/p/pypto_src/blob.py", std::string("y = 2\0\0", 7));
  repo.git("add projects/p/pypto_src/blob.py");
  test::Shell blocked = commit("-m blob2");
  EXPECT_NE(blocked.exit_code, 0) << blocked.out;
  EXPECT_NE(blocked.out.find("commit blocked because hook.on_tool_error is \"block\""), std::string::npos)
      << blocked.out;
}

TEST_F(HookCommit, NonUtf8FileNamesAreReadFromTheIndex) {
  const std::string name = "projects/p/pypto_src/caf\xe9.py";  // Latin-1 byte, not UTF-8
  repo.write(name, kBad);
  repo.git("add -A");
  test::Shell r = commit("-m latin1");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(".py:1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("projects/p/pypto_src/caf"), std::string::npos) << r.out;
  repo.write(name, kGood);
  repo.git("add -A");
  EXPECT_EQ(commit("-m latin1").exit_code, 0);
}

TEST_F(HookCommit, FilesOutsideThePortsAreNotChecked) {
  repo.write("tools/broken.py", kBad);
  repo.git("add tools/broken.py");
  test::Shell r = commit("-m tools");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.find("DSL001"), std::string::npos) << r.out;
}

TEST_F(HookCommit, PathsAreConfigurable) {
  repo.write("port-check.json", R"({"hook": {"paths": ["tools/**"]}})");
  repo.write("tools/broken.py", kBad);
  repo.git("add tools/broken.py");
  EXPECT_NE(commit("-m tools").exit_code, 0);
}

TEST_F(HookCommit, PyptoLibFilesAreChecked) {
  repo.write("pypto-lib/softmax.py", kBad);
  repo.git("add pypto-lib/softmax.py");
  test::Shell r = commit("-m lib");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("pypto-lib/softmax.py:1:"), std::string::npos) << r.out;
}

TEST(HookFirstCommit, UnbornHeadIsComparedWithTheEmptyTree) {
  GitRepo repo;
  ASSERT_EQ(repo.portCheck("hook install").exit_code, 0);
  repo.write(kGoldenPath, kGolden);
  repo.write(kKernel, kBad);
  repo.git("add -A");
  test::Shell blocked = repo.git("commit -m first", false);
  EXPECT_NE(blocked.exit_code, 0) << blocked.out;
  EXPECT_NE(blocked.out.find("[DSL001]"), std::string::npos) << blocked.out;
  EXPECT_EQ(repo.commits(), 0);

  repo.write(kKernel, kGood);
  repo.git("add -A");
  test::Shell ok = repo.git("commit -m first", false);
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_EQ(repo.commits(), 1);
}

TEST(HookFirstCommit, FirstCommitWithoutGoldenIsBlocked) {
  GitRepo repo;
  ASSERT_EQ(repo.portCheck("hook install").exit_code, 0);
  repo.write(kKernel, kGood);
  repo.git("add -A");
  test::Shell r = repo.git("commit -m first", false);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("[PROJ001]"), std::string::npos) << r.out;
}

TEST(HookWorktree, ALinkedWorktreeUsesTheSharedHookAndItsOwnIndex) {
  GitRepo repo;
  repo.write(kGoldenPath, kGolden);
  repo.write(kKernel, kGood);
  repo.git("add -A");
  repo.git("commit -q -m base");
  ASSERT_EQ(repo.portCheck("hook install").exit_code, 0);
  std::filesystem::path wt = repo.temp() / "wt";
  repo.git("worktree add -q -b feature " + test::singleQuoted(wt.string()));
  test::Shell w1 = repo.run(std::string("printf 'value = (1\\n' > ") + kKernel + " && git add " + kKernel +
                                " && git commit -m bad",
                            wt);
  EXPECT_NE(w1.exit_code, 0) << w1.out;
  EXPECT_NE(w1.out.find("[DSL001]"), std::string::npos) << w1.out;
  test::Shell w2 = repo.run(std::string("printf 'value = 2\\n' > ") + kKernel + " && git add " + kKernel +
                                " && git commit -q -m good",
                            wt);
  EXPECT_EQ(w2.exit_code, 0) << w2.out;
  // The main work tree's index was not involved.
  EXPECT_EQ(repo.staged(kKernel), kGood);
}

TEST(HookSubmodule, ASubmoduleInsideAPortIsSkippedWithANote) {
  GitRepo sub;
  sub.write("lib.py", kBad);
  sub.git("add -A");
  sub.git("commit -q -m sub");
  GitRepo repo;
  repo.write(kGoldenPath, kGolden);
  repo.git("add -A");
  repo.git("commit -q -m base");
  ASSERT_EQ(repo.portCheck("hook install").exit_code, 0);
  repo.git("-c protocol.file.allow=always submodule -q add " + test::singleQuoted(sub.root().string()) +
           " projects/p/pypto_src/vendor");
  test::Shell r = repo.git("commit -m submodule", false);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("projects/p/pypto_src/vendor: not checked, a submodule"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace portcheck
