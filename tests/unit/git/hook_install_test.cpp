// port-check hook install/uninstall: core.hooksPath, foreign hooks (refused, --force, --chain).
#include <gtest/gtest.h>

#include "git/hook_installer.h"
#include "git_repo.h"

namespace portcheck {
namespace {

using test::GitRepo;

constexpr const char* kForeign = "#!/bin/sh\necho foreign-hook-ran\nexit 0\n";

void writeHook(const GitRepo& repo, const std::string& rel, const std::string& text) {
  repo.write(rel, text);
  std::filesystem::permissions(repo.root() / rel, std::filesystem::perms::owner_all);
}

TEST(HookInstall, WritesAnExecutableHookThatRunsThisBinary) {
  GitRepo repo;
  test::Shell r = repo.portCheck("hook install");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::filesystem::path hook = repo.root() / ".git/hooks/pre-commit";
  std::string text = test::readFile(hook);
  EXPECT_TRUE(git::isPortCheckHook(text));
  EXPECT_NE(text.find(PORTCHECK_BINARY), std::string::npos) << text;
  EXPECT_NE(text.find("exec \"$port_check\" hook run"), std::string::npos);
  EXPECT_NE((std::filesystem::status(hook).permissions() & std::filesystem::perms::owner_exec),
            std::filesystem::perms::none);
  // Installing again updates it in place.
  test::Shell again = repo.portCheck("hook install");
  EXPECT_EQ(again.exit_code, 0) << again.out;
  EXPECT_NE(again.out.find("updated"), std::string::npos) << again.out;
}

TEST(HookInstall, ForeignHookIsRefusedWithoutForce) {
  GitRepo repo;
  writeHook(repo, ".git/hooks/pre-commit", kForeign);
  test::Shell r = repo.portCheck("hook install");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("was not written by port-check"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--chain"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--force"), std::string::npos) << r.out;
  EXPECT_EQ(repo.read(".git/hooks/pre-commit"), kForeign);
  // uninstall leaves it alone too
  EXPECT_EQ(repo.portCheck("hook uninstall").exit_code, 2);
  EXPECT_EQ(repo.read(".git/hooks/pre-commit"), kForeign);
}

TEST(HookInstall, ForceReplacesAForeignHookAndKeepsABackup) {
  GitRepo repo;
  writeHook(repo, ".git/hooks/pre-commit", kForeign);
  test::Shell r = repo.portCheck("hook install --force");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(git::isPortCheckHook(repo.read(".git/hooks/pre-commit")));
  EXPECT_EQ(repo.read(".git/hooks/pre-commit.port-check-backup"), kForeign);
}

TEST(HookInstall, ChainRunsTheExistingHookFirstAndUninstallRestoresIt) {
  GitRepo repo;
  repo.write("projects/p/pypto_src/golden.py", test::kGolden);
  repo.git("add -A");
  repo.git("commit -q -m base");
  writeHook(repo, ".git/hooks/pre-commit", kForeign);
  test::Shell r = repo.portCheck("hook install --chain");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(repo.read(".git/hooks/pre-commit.port-check-chained"), kForeign);

  repo.write("projects/p/pypto_src/kernel.py", test::kBad);
  repo.git("add -A");
  test::Shell blocked = repo.git("commit -m chained", false);
  EXPECT_NE(blocked.exit_code, 0) << blocked.out;
  EXPECT_NE(blocked.out.find("foreign-hook-ran"), std::string::npos) << blocked.out;
  EXPECT_NE(blocked.out.find("[DSL001]"), std::string::npos) << blocked.out;

  // A failing chained hook blocks the commit by itself, before port-check runs.
  writeHook(repo, ".git/hooks/pre-commit.port-check-chained", "#!/bin/sh\necho chained-says-no\nexit 3\n");
  repo.write("projects/p/pypto_src/kernel.py", test::kGood);
  repo.git("add -A");
  test::Shell no = repo.git("commit -m chained", false);
  EXPECT_NE(no.exit_code, 0) << no.out;
  EXPECT_NE(no.out.find("chained-says-no"), std::string::npos) << no.out;

  writeHook(repo, ".git/hooks/pre-commit.port-check-chained", kForeign);
  test::Shell un = repo.portCheck("hook uninstall");
  EXPECT_EQ(un.exit_code, 0) << un.out;
  EXPECT_EQ(repo.read(".git/hooks/pre-commit"), kForeign);
  EXPECT_FALSE(std::filesystem::exists(repo.root() / ".git/hooks/pre-commit.port-check-chained"));
}

TEST(HookInstall, UninstallRemovesOnlyItsOwnHook) {
  GitRepo repo;
  EXPECT_EQ(repo.portCheck("hook uninstall").exit_code, 0);  // nothing installed: nothing to do
  ASSERT_EQ(repo.portCheck("hook install").exit_code, 0);
  test::Shell r = repo.portCheck("hook uninstall");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(std::filesystem::exists(repo.root() / ".git/hooks/pre-commit"));
}

TEST(HookInstall, RespectsCoreHooksPath) {
  GitRepo repo;
  repo.git("config core.hooksPath .githooks");
  test::Shell r = repo.portCheck("hook install");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(git::isPortCheckHook(repo.read(".githooks/pre-commit")));
  EXPECT_FALSE(std::filesystem::exists(repo.root() / ".git/hooks/pre-commit"));
  // git runs it from there.
  repo.write("projects/p/pypto_src/golden.py", test::kGolden);
  repo.write("projects/p/pypto_src/kernel.py", test::kBad);
  repo.git("add projects");
  test::Shell c = repo.git("commit -m x", false);
  EXPECT_NE(c.exit_code, 0) << c.out;
  EXPECT_NE(c.out.find("[DSL001]"), std::string::npos) << c.out;
}

TEST(HookInstall, OutsideARepositoryIsAClearError) {
  test::TempDir dir;
  test::Shell r = test::shell(test::singleQuoted(PORTCHECK_BINARY) + " hook install", dir.path(), dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("not inside a git repository"), std::string::npos) << r.out;
}

TEST(HookInstall, BadArgumentsExitTwo) {
  GitRepo repo;
  EXPECT_EQ(repo.portCheck("hook").exit_code, 2);
  EXPECT_EQ(repo.portCheck("hook frobnicate").exit_code, 2);
  EXPECT_EQ(repo.portCheck("hook install --force --chain").exit_code, 2);
  EXPECT_EQ(repo.portCheck("hook run --force").exit_code, 2);
}

TEST(HookScript, FallsBackToPortCheckOnPathAndNeverBlocksWhenTheBinaryIsGone) {
  std::string text = git::preCommitScript("/nonexistent/port-check");
  EXPECT_EQ(text.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_NE(text.find("command -v port-check"), std::string::npos);
  GitRepo repo;
  writeHook(repo, ".git/hooks/pre-commit", text);
  repo.write("a.txt", "a\n");
  repo.git("add a.txt");
  test::Shell r = repo.run("PATH=/usr/bin:/bin git commit -m x");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("were NOT checked"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace portcheck
