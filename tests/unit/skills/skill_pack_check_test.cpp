// port-check skills check: the pack in this repository passes its own check, every fixture pack
// under tests/fixtures/skills/ reports exactly the findings its expected.txt lists, and every static
// SKILL rule has a fixture that triggers it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "rules/catalogue.h"
#include "skills/pack_checks.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

std::string fixtureRoot() { return test::fixturesDir() + "/skills"; }

// "ID path[:line[:col]]" for each diagnostic; line/col only when known.
std::vector<std::string> findings(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) {
    std::string s = d.rule + " " + d.file;
    if (d.line > 0) s += ":" + std::to_string(d.line);
    if (d.column > 0) s += ":" + std::to_string(d.column);
    out.push_back(s);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> expectedFindings(const fs::path& dir) {
  std::vector<std::string> out;
  std::istringstream in(test::readFile(dir / "expected.txt"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> fixturePacks() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fixtureRoot()))
    if (e.is_directory() && fs::exists(e.path() / "expected.txt")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SkillPackCheck, ThisRepositorysPackPassesItsOwnCheck) {
  Workspace ws{fs::path(test::sourceDir())};
  std::vector<Diagnostic> ds = checkSkillPack(ws, ws.root);
  EXPECT_TRUE(ds.empty()) << ::testing::PrintToString(findings(ds));
}

TEST(SkillPackCheck, EveryFixtureReportsExactlyItsExpectedFindings) {
  std::vector<fs::path> packs = fixturePacks();
  ASSERT_GE(packs.size(), 20u);
  for (const fs::path& dir : packs) {
    SCOPED_TRACE(dir.filename().string());
    Workspace ws{dir};
    EXPECT_EQ(findings(checkSkillPack(ws, dir)), expectedFindings(dir));
  }
}

TEST(SkillPackCheck, EveryStaticSkillRuleHasABrokenFixtureThatTriggersIt) {
  std::set<std::string> triggered;
  for (const fs::path& dir : fixturePacks())
    for (const std::string& f : expectedFindings(dir)) triggered.insert(f.substr(0, f.find(' ')));
  // SKILL017/018 need git history (release_check_test.cpp), SKILL019 an install (skill_install_test.cpp).
  const std::set<std::string> elsewhere = {"SKILL017", "SKILL018", "SKILL019"};
  for (const RuleInfo& r : Catalogue::builtin().rules()) {
    if (r.family != "SKILL" || elsewhere.count(r.id)) continue;
    EXPECT_TRUE(triggered.count(r.id)) << r.id << " has no fixture under tests/fixtures/skills/";
  }
}

TEST(SkillPackCheck, ValidFixtureIsCleanSoEachBrokenOneIsolatesItsDefect) {
  Workspace ws{fs::path(fixtureRoot()) / "valid"};
  EXPECT_TRUE(checkSkillPack(ws, ws.root).empty());
}

TEST(SkillPackCheck, TemplateReferencesResolveAgainstTheGivenLookup) {
  fs::path dir = fs::path(fixtureRoot()) / "valid";
  Workspace ws{dir};
  PackCheckOptions none;
  none.template_exists = [](const std::string&) { return false; };
  std::vector<std::string> f = findings(checkSkillPack(ws, dir, none));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0], "SKILL013 skills/alpha/SKILL.md:10:13");
}

TEST(SkillPackCheck, SkillNameRulesFollowTheAgentSkillsSpecification) {
  EXPECT_EQ(skillNameProblem("fusion-and-sram"), "");
  EXPECT_EQ(skillNameProblem("a1"), "");
  EXPECT_NE(skillNameProblem(""), "");
  EXPECT_NE(skillNameProblem("-lead"), "");
  EXPECT_NE(skillNameProblem("trail-"), "");
  EXPECT_NE(skillNameProblem("double--dash"), "");
  EXPECT_NE(skillNameProblem("Upper"), "");
  EXPECT_NE(skillNameProblem("under_score"), "");
  EXPECT_NE(skillNameProblem(std::string(65, 'a')), "");
  EXPECT_EQ(skillNameProblem(std::string(64, 'a')), "");
}

TEST(SkillPackCheck, CliChecksThePackAndExitsOneOnFindings) {
  auto clean = test::runBinary("skills check " + fixtureRoot() + "/valid", test::sourceDir());
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  auto broken = test::runBinary("skills check --format json " + fixtureRoot() + "/broken-link", test::sourceDir());
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.out.find("\"rule\": \"SKILL010\""), std::string::npos) << broken.out;
}

TEST(SkillPackCheck, NotAPackIsAToolError) {
  test::TempDir ws;
  auto r = test::runBinary("skills check", ws.path(), /*merge_stderr=*/true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("no skill pack"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace portcheck
