// The SKILL.md frontmatter subset and semantic versions.
#include <gtest/gtest.h>

#include "skills/frontmatter.h"
#include "skills/semver.h"

namespace portcheck {
namespace {

TEST(Frontmatter, ParsesScalarsQuotedValuesAndNestedMetadata) {
  Frontmatter fm = parseFrontmatter(
      "---\nname: fusion\ndescription: \"Use when: fusing\"\nlicense: 'it''s MIT'\nmetadata:\n  version: \"1.2.3\"\n"
      "  owner: team # trailing comment\n---\n# Body\nline\n");
  ASSERT_TRUE(fm.ok) << fm.error;
  EXPECT_EQ(fm.find("name")->value, "fusion");
  EXPECT_EQ(fm.find("description")->value, "Use when: fusing");
  EXPECT_EQ(fm.find("license")->value, "it's MIT");
  const FrontmatterEntry* meta = fm.find("metadata");
  ASSERT_TRUE(meta && meta->is_map);
  EXPECT_EQ(meta->map.at("version"), "1.2.3");
  EXPECT_EQ(meta->map.at("owner"), "team");
  EXPECT_EQ(meta->map_lines.at("version"), 6);
  EXPECT_EQ(fm.body_first_line, 9);
  EXPECT_EQ(fm.body_lines, 2);
}

TEST(Frontmatter, FoldsAndKeepsBlockScalars) {
  Frontmatter fm = parseFrontmatter("---\ndescription: >-\n  Use when\n  porting.\nnotes: |\n  a\n  b\n---\n");
  ASSERT_TRUE(fm.ok) << fm.error;
  EXPECT_EQ(fm.find("description")->value, "Use when porting.");
  EXPECT_EQ(fm.find("notes")->value, "a\nb");
  EXPECT_EQ(fm.body_lines, 0);
}

TEST(Frontmatter, AcceptsFlowMapsAndCrlf) {
  Frontmatter fm = parseFrontmatter("---\r\nname: x\r\nmetadata: {version: \"0.1.0\", tier: core}\r\n---\r\nbody\r\n");
  ASSERT_TRUE(fm.ok) << fm.error;
  EXPECT_EQ(fm.find("metadata")->map.at("version"), "0.1.0");
  EXPECT_EQ(fm.find("metadata")->map.at("tier"), "core");
}

TEST(Frontmatter, ReportsWhatIsWrongAndWhere) {
  Frontmatter none = parseFrontmatter("# Title\n");
  EXPECT_FALSE(none.ok);
  EXPECT_EQ(none.error_line, 1);
  Frontmatter open = parseFrontmatter("---\nname: x\n");
  EXPECT_FALSE(open.ok);
  EXPECT_NE(open.error.find("never closed"), std::string::npos);
  Frontmatter junk = parseFrontmatter("---\nname: x\njust words\n---\n");
  EXPECT_FALSE(junk.ok);
  EXPECT_EQ(junk.error_line, 3);
  Frontmatter bad_nested = parseFrontmatter("---\nmetadata:\n  - item\n---\n");
  EXPECT_FALSE(bad_nested.ok);
  EXPECT_EQ(bad_nested.error_line, 3);
  EXPECT_FALSE(parseFrontmatter("").ok);
}

TEST(SemVer, ParsesOnlyMajorMinorPatch) {
  ASSERT_TRUE(parseSemVer("1.10.3"));
  EXPECT_EQ(parseSemVer("1.10.3")->str(), "1.10.3");
  EXPECT_FALSE(parseSemVer("1.0"));
  EXPECT_FALSE(parseSemVer("v1.0.0"));
  EXPECT_FALSE(parseSemVer("1.0.0-rc1"));
  EXPECT_FALSE(parseSemVer("01.0.0"));
  EXPECT_FALSE(parseSemVer("1..0"));
  EXPECT_FALSE(parseSemVer(""));
}

TEST(SemVer, OrdersNumericallyNotLexically) {
  EXPECT_TRUE(*parseSemVer("0.9.0") < *parseSemVer("0.10.0"));
  EXPECT_TRUE(*parseSemVer("1.0.0") <= *parseSemVer("1.0.0"));
  EXPECT_FALSE(*parseSemVer("2.0.0") <= *parseSemVer("1.9.9"));
}

}  // namespace
}  // namespace portcheck
