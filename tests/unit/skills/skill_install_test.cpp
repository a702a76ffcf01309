// port-check skills install: installs into DIR/.claude/skills, is idempotent, updates files it
// installed, removes files the pack dropped, and refuses to overwrite local edits without --force.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "skills/installer.h"
#include "skills/skill_pack.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

// Every file under `dir` with its content and modification time.
std::map<std::string, std::pair<std::string, fs::file_time_type>> snapshot(const fs::path& dir) {
  std::map<std::string, std::pair<std::string, fs::file_time_type>> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file())
      out[e.path().lexically_relative(dir).generic_string()] = {test::readFile(e.path()), e.last_write_time()};
  return out;
}

class SkillInstall : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(fs::path(test::fixturesDir()) / "skills" / "valid", pack.path(), fs::copy_options::recursive);
  }
  test::CommandResult install(bool force = false, std::string pack_dir = {}) {
    SkillsOptions so;
    so.pack = pack_dir.empty() ? pack.path().string() : pack_dir;
    so.target = target.path().string();
    so.force = force;
    auto o = test::optionsIn(target.path());
    return test::runInProcess([&](const Io& io) { return runSkillsInstall(o, so, io); });
  }
  fs::path installed(const std::string& rel) const { return target.path() / ".claude" / "skills" / rel; }
  test::TempDir pack, target;
};

TEST_F(SkillInstall, InstallsEverySkillFileAndAManifest) {
  auto r = install();
  EXPECT_EQ(r.exit_code, kExitClean) << r.out << r.err;
  EXPECT_EQ(test::readFile(installed("alpha/SKILL.md")), test::readFile(pack / "skills/alpha/SKILL.md"));
  EXPECT_TRUE(fs::exists(installed("alpha/references/detail.md")));
  EXPECT_FALSE(fs::exists(installed("CHANGELOG.md"))) << "pack-level files are not skills";
  ASSERT_TRUE(fs::exists(pack / "skills/alpha/evals/evals.json"));
  EXPECT_FALSE(fs::exists(installed("alpha/evals/evals.json"))) << "an agent given the skill never sees its evals";
  std::string manifest = test::readFile(installed(kInstallManifest));
  EXPECT_NE(manifest.find("\"alpha/SKILL.md\": \"" + blobHash(test::readFile(pack / "skills/alpha/SKILL.md")) + "\""),
            std::string::npos)
      << manifest;
  EXPECT_NE(r.err.find("2 written, 0 removed, 0 unchanged"), std::string::npos) << r.err;
}

TEST_F(SkillInstall, InstallingTwiceChangesNothing) {
  ASSERT_EQ(install().exit_code, kExitClean);
  auto before = snapshot(target.path());
  auto r = install();
  EXPECT_EQ(r.exit_code, kExitClean);
  EXPECT_EQ(snapshot(target.path()), before);
  EXPECT_NE(r.err.find("0 written, 0 removed, 2 unchanged"), std::string::npos) << r.err;
}

TEST_F(SkillInstall, RefusesToOverwriteALocalEditWithoutForce) {
  ASSERT_EQ(install().exit_code, kExitClean);
  std::ofstream(installed("alpha/SKILL.md"), std::ios::app) << "\nmy local note\n";
  pack.write("skills/alpha/references/detail.md", "# Detail\n\nNew text.\n");  // a pack update too
  std::string edited = test::readFile(installed("alpha/SKILL.md"));
  auto r = install();
  EXPECT_EQ(r.exit_code, kExitFindings);
  EXPECT_NE(r.out.find("[SKILL019]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("alpha/SKILL.md was edited after port-check installed it"), std::string::npos) << r.out;
  EXPECT_EQ(test::readFile(installed("alpha/SKILL.md")), edited);
  EXPECT_NE(test::readFile(installed("alpha/references/detail.md")).find("Back to"), std::string::npos)
      << "a refused install writes nothing, not even the unedited files";
}

TEST_F(SkillInstall, ForceReplacesLocalEdits) {
  ASSERT_EQ(install().exit_code, kExitClean);
  std::ofstream(installed("alpha/SKILL.md"), std::ios::app) << "\nmy local note\n";
  auto r = install(/*force=*/true);
  EXPECT_EQ(r.exit_code, kExitClean) << r.out;
  EXPECT_EQ(test::readFile(installed("alpha/SKILL.md")), test::readFile(pack / "skills/alpha/SKILL.md"));
}

TEST_F(SkillInstall, UpdatesUneditedFilesWhenThePackChanges) {
  ASSERT_EQ(install().exit_code, kExitClean);
  pack.write("skills/alpha/references/detail.md", "# Detail\n\nNew text.\n");
  auto r = install();
  EXPECT_EQ(r.exit_code, kExitClean) << r.out;
  EXPECT_EQ(test::readFile(installed("alpha/references/detail.md")), "# Detail\n\nNew text.\n");
  EXPECT_NE(r.err.find("1 written, 0 removed, 1 unchanged"), std::string::npos) << r.err;
}

TEST_F(SkillInstall, RemovesFilesThePackNoLongerHas) {
  pack.write("skills/beta/SKILL.md", "---\nname: beta\ndescription: Use when b.\nmetadata:\n  version: \"0.1.0\"\n---\n");
  ASSERT_EQ(install().exit_code, kExitClean);
  ASSERT_TRUE(fs::exists(installed("beta/SKILL.md")));
  fs::remove_all(pack / "skills/beta");
  auto r = install();
  EXPECT_EQ(r.exit_code, kExitClean) << r.out;
  EXPECT_FALSE(fs::exists(installed("beta")));
  EXPECT_EQ(test::readFile(installed(kInstallManifest)).find("beta/"), std::string::npos);
}

TEST_F(SkillInstall, RefusesToReplaceAFileItDidNotInstall) {
  target.write(".claude/skills/alpha/SKILL.md", "someone else's skill\n");
  auto r = install();
  EXPECT_EQ(r.exit_code, kExitFindings);
  EXPECT_NE(r.out.find("exists and was not installed by port-check"), std::string::npos) << r.out;
  EXPECT_EQ(test::readFile(installed("alpha/SKILL.md")), "someone else's skill\n");
}

TEST_F(SkillInstall, MissingTargetIsAToolError) {
  SkillsOptions so;
  so.pack = pack.path().string();
  so.target = (target.path() / "nope").string();
  auto o = test::optionsIn(target.path());
  auto r = test::runInProcess([&](const Io& io) { return runSkillsInstall(o, so, io); });
  EXPECT_EQ(r.exit_code, kExitToolError);
}

TEST(SkillInstallBuiltIn, InstallsTheBuiltInPackFromAnyFolderTwiceWithoutChanges) {
  test::TempDir target;
  auto first = test::runBinary("skills install --target .", target.path(), /*merge_stderr=*/true);
  ASSERT_EQ(first.exit_code, 0) << first.out;
  EXPECT_TRUE(fs::exists(target / ".claude/skills/pypto-porting-workflow/SKILL.md"));
  EXPECT_TRUE(fs::exists(target / ".claude/skills/incore-fusion-and-sram/references/budget-worksheets.md"));
  auto before = snapshot(target.path());
  auto second = test::runBinary("skills install --target .", target.path(), /*merge_stderr=*/true);
  EXPECT_EQ(second.exit_code, 0) << second.out;
  EXPECT_NE(second.out.find(" 0 written, 0 removed,"), std::string::npos) << second.out;
  EXPECT_EQ(snapshot(target.path()), before);
}

}  // namespace
}  // namespace portcheck
