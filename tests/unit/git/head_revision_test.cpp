// readHeadFromGitFiles agrees with git rev-parse HEAD on the layouts git writes, and gives up
// (nullopt, so libgit2 answers) where the files do not say it plainly.
#include "git/head_revision.h"

#include <gtest/gtest.h>

#include "git/git_repo.h"
#include "toolchain/toolchain.h"

namespace portcheck {
namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

TEST(HeadRevision, ALooseBranchRefIsRead) {
  test::GitRepo repo;
  repo.write("a.txt", "a\n");
  repo.git("add a.txt");
  repo.git("commit -q -m one");
  std::optional<std::string> head = readHeadFromGitFiles(repo.root());
  ASSERT_TRUE(head);
  EXPECT_EQ(*head, trimmed(repo.head()));
  EXPECT_EQ(gitHeadRevision(repo.root()), head->substr(0, 12));
}

TEST(HeadRevision, APackedRefAndADetachedHeadAreRead) {
  test::GitRepo repo;
  repo.write("a.txt", "a\n");
  repo.git("add a.txt");
  repo.git("commit -q -m one");
  repo.write("a.txt", "b\n");
  repo.git("commit -q -am two");
  repo.git("pack-refs --all --prune");
  ASSERT_FALSE(std::filesystem::exists(repo.root() / ".git/refs/heads/main"));
  EXPECT_EQ(readHeadFromGitFiles(repo.root()), trimmed(repo.head()));

  repo.git("checkout -q --detach HEAD~1");
  std::string detached = trimmed(repo.head());
  EXPECT_EQ(readHeadFromGitFiles(repo.root()), detached);
  EXPECT_EQ(gitHeadRevision(repo.root()), detached.substr(0, 12));
}

TEST(HeadRevision, AnUnbornBranchOrNoRepositoryHasNoRevision) {
  test::GitRepo repo;  // `git init`, no commit yet
  EXPECT_FALSE(readHeadFromGitFiles(repo.root()));
  EXPECT_FALSE(gitHeadRevision(repo.root()));
  EXPECT_FALSE(readHeadFromGitFiles(repo.temp() / "home"));
  EXPECT_FALSE(gitHeadRevision(repo.temp() / "home"));
}

TEST(HeadRevision, ALinkedWorktreeIsLeftToLibgit2) {
  test::GitRepo repo;
  repo.write("a.txt", "a\n");
  repo.git("add a.txt");
  repo.git("commit -q -m one");
  repo.git("worktree add -q ../wt");
  std::filesystem::path wt = repo.temp() / "wt";
  EXPECT_FALSE(readHeadFromGitFiles(wt));  // .git is a file naming a folder with a commondir
  EXPECT_EQ(gitHeadRevision(wt), trimmed(repo.head()).substr(0, 12));
}

}  // namespace
}  // namespace portcheck
