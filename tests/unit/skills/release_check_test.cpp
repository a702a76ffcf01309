// The release rule against git history: a skill changed since the newest skills-vX.Y.Z tag must
// carry a higher metadata.version, and the pack a higher plugin.json version (SKILL017, SKILL018).
#include <git2.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "skills/release_check.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

void copyTree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

// A git repository in a temporary folder, driven through libgit2.
class GitRepo {
 public:
  explicit GitRepo(const fs::path& dir) : dir_(dir) {
    git_libgit2_init();
    EXPECT_EQ(git_repository_init(&repo_, dir.c_str(), 0), 0);
  }
  ~GitRepo() {
    git_repository_free(repo_);
    git_libgit2_shutdown();
  }
  // Stages every file and commits it; returns the commit.
  git_oid commitAll(const char* message) {
    git_index* index = nullptr;
    git_repository_index(&index, repo_);
    git_index_add_all(index, nullptr, GIT_INDEX_ADD_DEFAULT, nullptr, nullptr);
    git_index_write(index);
    git_oid tree_oid, commit_oid;
    git_index_write_tree(&tree_oid, index);
    git_index_free(index);
    git_tree* tree = nullptr;
    git_tree_lookup(&tree, repo_, &tree_oid);
    git_signature* sig = nullptr;
    git_signature_new(&sig, "test", "test@example.com", 1763800000, 0);
    git_oid parent_oid;
    git_commit* parent = nullptr;
    if (git_reference_name_to_id(&parent_oid, repo_, "HEAD") == 0) git_commit_lookup(&parent, repo_, &parent_oid);
    const git_commit* parents[] = {parent};
    EXPECT_EQ(git_commit_create(&commit_oid, repo_, "HEAD", sig, sig, nullptr, message, tree, parent ? 1 : 0, parents),
              0);
    git_commit_free(parent);
    git_signature_free(sig);
    git_tree_free(tree);
    return commit_oid;
  }
  void tag(const std::string& name) {
    git_oid head, tag_oid;
    ASSERT_EQ(git_reference_name_to_id(&head, repo_, "HEAD"), 0);
    git_object* obj = nullptr;
    git_object_lookup(&obj, repo_, &head, GIT_OBJECT_COMMIT);
    EXPECT_EQ(git_tag_create_lightweight(&tag_oid, repo_, name.c_str(), obj, 0), 0);
    git_object_free(obj);
  }

 private:
  fs::path dir_;
  git_repository* repo_ = nullptr;
};

class ReleaseCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    fixture = fs::path(test::fixturesDir()) / "skills" / "release-unbumped";
    copyTree(fixture / "before", ws.path());
    git = std::make_unique<GitRepo>(ws.path());
    git->commitAll("pack 0.1.0");
    git->tag("skills-v0.1.0");
  }
  ReleaseCheckOutcome check() { return checkReleaseBump(Workspace{ws.path()}, ws.path()); }
  std::vector<std::string> rules(const ReleaseCheckOutcome& o) {
    std::vector<std::string> out;
    for (const Diagnostic& d : o.diagnostics) out.push_back(d.rule + " " + d.file + ":" + std::to_string(d.line));
    std::sort(out.begin(), out.end());
    return out;
  }
  void replaceIn(const std::string& rel, const std::string& from, const std::string& to) {
    std::string text = test::readFile(ws / rel);
    std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    ws.write(rel, text);
  }
  test::TempDir ws;
  fs::path fixture;
  std::unique_ptr<GitRepo> git;
};

TEST_F(ReleaseCheck, UnchangedPackSinceTheTagIsClean) {
  ReleaseCheckOutcome o = check();
  EXPECT_TRUE(o.ran) << o.detail;
  EXPECT_EQ(o.tag, "skills-v0.1.0");
  EXPECT_TRUE(o.changed.empty());
  EXPECT_TRUE(o.diagnostics.empty());
}

TEST_F(ReleaseCheck, ChangedSkillWithoutBumpsReportsTheSkillAndThePack) {
  copyTree(fixture / "after", ws.path());
  ReleaseCheckOutcome o = check();
  EXPECT_EQ(o.changed, std::vector<std::string>{"alpha"});
  EXPECT_EQ(rules(o), (std::vector<std::string>{"SKILL017 skills/alpha/SKILL.md:5", "SKILL018 .claude-plugin/plugin.json:1"}));
}

TEST_F(ReleaseCheck, BumpedSkillButUnbumpedPackReportsOnlyThePack) {
  copyTree(fixture / "after", ws.path());
  replaceIn("skills/alpha/SKILL.md", "version: \"0.1.0\"", "version: \"0.1.1\"");
  EXPECT_EQ(rules(check()), std::vector<std::string>{"SKILL018 .claude-plugin/plugin.json:1"});
}

TEST_F(ReleaseCheck, BumpedSkillAndPackAreClean) {
  copyTree(fixture / "after", ws.path());
  replaceIn("skills/alpha/SKILL.md", "version: \"0.1.0\"", "version: \"0.1.1\"");
  replaceIn(".claude-plugin/plugin.json", "\"0.1.0\"", "\"0.1.1\"");
  EXPECT_TRUE(check().diagnostics.empty());
}

TEST_F(ReleaseCheck, ChangeInAReferenceFileCountsAsASkillChange) {
  ws.write("skills/alpha/references/detail.md", "# Detail\n\nRewritten.\n");
  EXPECT_EQ(rules(check()), (std::vector<std::string>{"SKILL017 skills/alpha/SKILL.md:5", "SKILL018 .claude-plugin/plugin.json:1"}));
}

TEST_F(ReleaseCheck, NewSkillNeedsOnlyAPackBump) {
  ws.write("skills/beta/SKILL.md", "---\nname: beta\ndescription: Use when b.\nmetadata:\n  version: \"0.1.0\"\n---\n");
  ReleaseCheckOutcome o = check();
  EXPECT_EQ(o.changed, std::vector<std::string>{"beta"});
  EXPECT_EQ(rules(o), std::vector<std::string>{"SKILL018 .claude-plugin/plugin.json:1"});
}

TEST_F(ReleaseCheck, PackLevelFilesAndIgnoredFilesAreNotSkillChanges) {
  ws.write("skills/CHANGELOG.md", "# Changelog\n\n## [0.1.0] - 2026-11-22\n\n- reworded\n");
  ws.write(".gitignore", "*.swp\n");
  ws.write("skills/alpha/.SKILL.md.swp", "editor state");
  ws.write("skills/alpha/notes.swp", "editor state");
  EXPECT_TRUE(check().diagnostics.empty());
}

TEST_F(ReleaseCheck, TheNewestTagIsTheBaseline) {
  copyTree(fixture / "after", ws.path());
  replaceIn("skills/alpha/SKILL.md", "version: \"0.1.0\"", "version: \"0.1.1\"");
  replaceIn(".claude-plugin/plugin.json", "\"0.1.0\"", "\"0.1.1\"");
  git->commitAll("pack 0.1.1");
  git->tag("skills-v0.1.1");
  ReleaseCheckOutcome o = check();
  EXPECT_EQ(o.tag, "skills-v0.1.1");
  EXPECT_TRUE(o.changed.empty());
}

TEST(ReleaseCheckWithoutHistory, NoRepositoryOrNoTagSkipsWithAReason) {
  test::TempDir ws;
  copyTree(fs::path(test::fixturesDir()) / "skills" / "valid", ws.path());
  ReleaseCheckOutcome o = checkReleaseBump(Workspace{ws.path()}, ws.path());
  EXPECT_FALSE(o.ran);
  EXPECT_TRUE(o.diagnostics.empty());
  GitRepo repo(ws.path());
  repo.commitAll("no tag yet");
  o = checkReleaseBump(Workspace{ws.path()}, ws.path());
  EXPECT_FALSE(o.ran);
  EXPECT_NE(o.detail.find("no skills-vX.Y.Z release tag"), std::string::npos) << o.detail;
}

TEST(ReleaseTags, NewestIsChosenBySemverAndJunkIsIgnored) {
  auto t = newestReleaseTag({"skills-v0.9.0", "skills-v0.10.0", "skills-v1.0", "v2.0.0", "skills-vX", "skills-v0.10.0-rc1"});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->first, "skills-v0.10.0");
  EXPECT_FALSE(newestReleaseTag({"v1.0.0", "release"}));
}

TEST(ReleaseCheckInASubfolder, PackBelowTheRepositoryRootIsComparedAtItsPrefix) {
  test::TempDir repo_dir;
  fs::path pack = repo_dir.path() / "tools" / "pack";
  copyTree(fs::path(test::fixturesDir()) / "skills" / "release-unbumped" / "before", pack);
  GitRepo repo(repo_dir.path());
  repo.commitAll("pack");
  repo.tag("skills-v0.1.0");
  copyTree(fs::path(test::fixturesDir()) / "skills" / "release-unbumped" / "after", pack);
  ReleaseCheckOutcome o = checkReleaseBump(Workspace{repo_dir.path()}, pack);
  ASSERT_EQ(o.diagnostics.size(), 2u);
  EXPECT_EQ(o.diagnostics[0].file, "tools/pack/skills/alpha/SKILL.md");
}

}  // namespace
}  // namespace portcheck
