// Data-driven test of every kernel rule: each tests/fixtures/kernel/rules/*.cpp marks the findings it must
// produce with `// expect: ID [ID...]` on the offending line (and `// platform: a5` to change platform); the
// linter must report exactly those, nothing more.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "lint/linters.h"
#include "rules/catalogue.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

struct Finding {
  int line;
  std::string rule;
  auto operator<=>(const Finding&) const = default;
};

struct Fixture {
  fs::path path;
  SourceFile source;
  Platform platform = Platform::A2A3;
  std::vector<Finding> expected;
};

Fixture loadFixture(const fs::path& p) {
  Fixture f;
  f.path = p;
  auto read = readSourceFile(p, p.filename().string());
  if (read.file) f.source = *read.file;
  static const std::regex kExpect(R"(//\s*expect:\s*([A-Z0-9 ,]+))");
  std::istringstream lines(f.source.text);
  std::string s;
  for (int line = 1; std::getline(lines, s); ++line) {
    if (s.find("// platform: a5") == 0) f.platform = Platform::A5;
    std::smatch m;
    if (!std::regex_search(s, m, kExpect)) continue;
    std::string ids = m[1];
    std::regex word("[A-Z]+[0-9]{3}");
    for (auto it = std::sregex_iterator(ids.begin(), ids.end(), word); it != std::sregex_iterator(); ++it)
      f.expected.push_back({line, it->str()});
  }
  std::sort(f.expected.begin(), f.expected.end());
  return f;
}

std::vector<fs::path> fixtureFiles() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(test::fixturesDir()) / "kernel" / "rules"))
    if (e.path().extension() == ".cpp") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string show(const std::vector<Finding>& v) {
  std::string s;
  for (const Finding& f : v) s += "  line " + std::to_string(f.line) + " " + f.rule + "\n";
  return s.empty() ? "  (none)\n" : s;
}

TEST(KernelRules, EveryFixtureReportsExactlyItsExpectedFindings) {
  Config config;
  auto files = fixtureFiles();
  ASSERT_GE(files.size(), 40u);
  for (const fs::path& p : files) {
    Fixture f = loadFixture(p);
    LintSettings settings;
    settings.platform = f.platform;
    settings.config = &config;
    std::vector<Finding> actual;
    std::string detail;
    for (const Diagnostic& d : lintKernelFile(f.source, settings)) {
      actual.push_back({d.line, d.rule});
      detail += "  " + std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.rule + " " + d.message + "\n";
    }
    std::sort(actual.begin(), actual.end());
    EXPECT_EQ(actual, f.expected) << p.filename().string() << "\nexpected:\n"
                                  << show(f.expected) << "reported:\n"
                                  << detail;
  }
}

TEST(KernelRules, EveryLintRuleHasAFailingAndAPassingKernel) {
  std::set<std::string> expected_somewhere, good_files;
  for (const fs::path& p : fixtureFiles()) {
    Fixture f = loadFixture(p);
    std::string stem = p.stem().string();
    std::string id = stem.substr(0, stem.find('_'));
    if (stem.find("_good") != std::string::npos) {
      EXPECT_TRUE(f.expected.empty()) << stem << " is a passing kernel but expects findings";
      good_files.insert(id);
    }
    for (const Finding& e : f.expected)
      if (e.rule == id) expected_somewhere.insert(id);
  }
  int checked = 0;
  for (const RuleInfo& r : Catalogue::builtin().rules()) {
    if ((r.family != "AUTO" && r.family != "ISA") || r.source != Stage::Lint) continue;
    ++checked;
    EXPECT_TRUE(expected_somewhere.count(r.id)) << r.id << " has no failing kernel (" << r.id << "_bad.cpp)";
    EXPECT_TRUE(good_files.count(r.id)) << r.id << " has no passing kernel (" << r.id << "_good.cpp)";
  }
  EXPECT_GE(checked, 20);
}

TEST(KernelRules, InlineSuppressionSilencesTheNamedRuleOnItsLineAndTheNext) {
  Config config;
  LintSettings settings;
  settings.config = &config;
  auto read = sourceFromBytes(
      "#include <pto/pto-inst.hpp>\n"
      "using namespace pto;\n"
      "using V = Tile<TileType::Vec, float, 16, 64>;\n"
      "AICORE void k(V& a, V& b) {\n"
      "  TASSIGN(a, 0x0);  // port-check: ignore[AUTO001]\n"
      "  // port-check: ignore[ISA005, AUTO001]\n"
      "  TASSIGN(b, 0x100);\n"
      "  // port-check: ignore[AUTO002]\n"
      "  TASSIGN(b, 0x200);\n"
      "}\n",
      "k.cpp");
  ASSERT_TRUE(read.file);
  auto ds = lintKernelFile(*read.file, settings);
  std::vector<Finding> got;
  for (const Diagnostic& d : ds) got.push_back({d.line, d.rule});
  std::sort(got.begin(), got.end());
  // ISA005 on line 6 and AUTO002 on line 8 silence nothing: the shared suppression audit reports them.
  EXPECT_EQ(got, (std::vector<Finding>{{6, "ISA013"}, {8, "ISA013"}, {9, "AUTO001"}}));
  for (const Diagnostic& d : ds)
    if (d.rule == "ISA013") EXPECT_EQ(d.column, 25) << d.message;  // at the ID
}

TEST(KernelRules, SuppressionCommentsUseTheSharedParserWithSlashSlashOnly) {
  Config config;
  LintSettings settings;
  settings.config = &config;
  auto read = sourceFromBytes(
      "using V = Tile<TileType::Vec, float, 16, 64>;\n"
      "AICORE void k(V& a, V& b) {\n"
      "  TASSIGN(a, 0x0);  # port-check: ignore[AUTO001]\n"
      "  /* port-check: ignore[AUTO001] */ TASSIGN(b, 0x0);\n"
      "  TASSIGN(b, 0x100);  // port-check: ignore[AUTO01]\n"
      "}\n"
      "// port-check: ignore-file[AUTO002]\n",
      "k.cpp");
  ASSERT_TRUE(read.file);
  std::vector<Finding> got;
  for (const Diagnostic& d : lintKernelFile(*read.file, settings)) got.push_back({d.line, d.rule});
  std::sort(got.begin(), got.end());
  // `#` and `/* */` are not kernel suppression comments; AUTO01 is unknown (ISA012, at the ID); the file-level
  // AUTO002 silences nothing (ISA013).
  EXPECT_EQ(got, (std::vector<Finding>{{3, "AUTO001"}, {4, "AUTO001"}, {5, "AUTO001"}, {5, "ISA012"}, {7, "ISA013"}}));
}

TEST(KernelRules, DiagnosticsCarryFileLineColumnAndCatalogueSeverity) {
  Config config;
  LintSettings settings;
  settings.config = &config;
  auto read = sourceFromBytes(
      "using V = Tile<TileType::Vec, float, 16, 64>;\n"
      "AICORE void k(V& a) {\n"
      "    TASSIGN(a, 0x0);\n"
      "    TPUSH(a, pipe);\n"
      "}\n",
      "projects/p/pypto_src/k.cpp");
  ASSERT_TRUE(read.file);
  auto ds = lintKernelFile(*read.file, settings);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].file, "projects/p/pypto_src/k.cpp");
  EXPECT_EQ(ds[0].rule, "AUTO001");
  EXPECT_EQ(ds[0].line, 3);
  EXPECT_EQ(ds[0].column, 5);
  EXPECT_EQ(ds[0].severity, Severity::Error);
  EXPECT_EQ(ds[1].rule, "AUTO010");
  EXPECT_EQ(ds[1].severity, Severity::Warning);
  EXPECT_EQ(ds[0].doc, "docs/rules.md#auto001");
}

}  // namespace
}  // namespace portcheck
