#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "core/text.h"
#include "rules/catalogue.h"
#include "test_support.h"

namespace portcheck {
namespace {

TEST(Catalogue, BuiltinLoadsEveryRecordUnderRules) {
  const Catalogue& cat = Catalogue::builtin();
  std::size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(test::sourceDir() + "/rules"))
    if (e.path().extension() == ".json" && e.path().filename() != "catalogue.json") ++files;
  EXPECT_EQ(cat.rules().size(), files);
  EXPECT_FALSE(cat.version().empty());
}

TEST(Catalogue, EveryRuleHasDocsExamplesAndAFileNamedForItsId) {
  for (const RuleInfo& r : Catalogue::builtin().rules()) {
    SCOPED_TRACE(r.id);
    EXPECT_EQ(r.path, "rules/" + r.family + "/" + r.id + ".json");
    EXPECT_FALSE(r.bad.empty()) << "a rule needs a bad example";
    EXPECT_FALSE(r.good.empty()) << "a rule needs a good example";
    EXPECT_EQ(r.docAnchor(), "docs/rules.md#" + toLower(r.id));
  }
}

TEST(Catalogue, FindsRulesById) {
  const RuleInfo* r = Catalogue::builtin().find("PROJ001");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "missing-golden");
  EXPECT_EQ(r->severity, Severity::Error);
  EXPECT_EQ(Catalogue::builtin().find("PROJ999"), nullptr);
}

TEST(Catalogue, RejectsDuplicateIds) {
  std::string rec = R"({"id":"PROJ001","name":"a","family":"PROJ","severity":"error","source":"lint",
    "summary":"s","description":"d","rationale":"r","hint":"h"})";
  EXPECT_THROW(Catalogue::fromRecords({{"rules/PROJ/a.json", rec}, {"rules/PROJ/b.json", rec}}), std::runtime_error);
}

TEST(Catalogue, RejectsMalformedRecordsNamingTheFile) {
  try {
    Catalogue::fromRecords({{"rules/X/bad.json", R"({"id":"x1","name":"a"})"}});
    FAIL() << "expected a throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rules/X/bad.json"), std::string::npos);
  }
  EXPECT_THROW(Catalogue::fromRecords({{"rules/X/bad.json", "not json"}}), std::runtime_error);
  std::string wrong_family = R"({"id":"DSL001","name":"a","family":"PROJ","severity":"error","source":"lint",
    "summary":"s","description":"d","rationale":"r","hint":"h"})";
  EXPECT_THROW(Catalogue::fromRecords({{"rules/PROJ/DSL001.json", wrong_family}}), std::runtime_error);
}

TEST(Catalogue, MakeDiagnosticTakesSeverityHintAndDocFromTheRule) {
  Diagnostic d = makeDiagnostic("PROJ001", "projects/x/pypto_src", 0, 0, "no golden");
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.source, Stage::Lint);
  EXPECT_EQ(d.doc, "docs/rules.md#proj001");
  EXPECT_FALSE(d.hint.empty());
  EXPECT_THROW(makeDiagnostic("NOPE001", "", 0, 0, "x"), std::logic_error);
}

TEST(Catalogue, GeneratedRulesReferenceIsUpToDate) {
  std::string committed = test::readFile(test::sourceDir() + "/docs/rules.md");
  EXPECT_EQ(committed, rulesMarkdown())
      << "docs/rules.md is stale: regenerate it with `build/port-check rules --markdown > docs/rules.md`";
}

}  // namespace
}  // namespace portcheck
