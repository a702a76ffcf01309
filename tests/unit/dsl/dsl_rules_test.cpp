// The DSL rules, data-driven: every tests/fixtures/dsl_rules/<ID>_bad.py / <ID>_good.py is linted
// and its findings must equal the `# expect: ID[@col] ...` annotations exactly (rule and line; the
// column where annotated). Good files carry no annotation and must stay silent. Also: the
// compiler-accepted real programs get no error, partial parses still run the rules, platform
// thresholds, and the shared suppression parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "lint/linters.h"
#include "lint/python_unit_support.h"
#include "lint/suppression.h"
#include "rules/catalogue.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

using test::lintPythonText;

struct Expected {
  std::string rule;
  int line = 0;
  int col = 0;  // 0: any column
};

std::vector<Expected> expectations(const std::string& text) {
  std::vector<Expected> out;
  static const std::regex kItem(R"(((?:DSL|TUNE)\d{3})(?:@(\d+))?)");
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    auto at = line.find("# expect:");
    if (at == std::string::npos) continue;
    std::string rest = line.substr(at + 9);
    for (std::sregex_iterator it(rest.begin(), rest.end(), kItem), end; it != end; ++it)
      out.push_back({(*it)[1], n, (*it)[2].matched ? std::stoi((*it)[2]) : 0});
  }
  return out;
}

std::string show(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const Diagnostic& d : ds)
    s += "  " + d.rule + " " + std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.message + "\n";
  return s;
}

std::vector<fs::path> ruleFixtures() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(test::fixturesDir()) / "dsl_rules"))
    if (e.path().extension() == ".py") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(DslRules, EveryFixtureReportsExactlyItsAnnotatedFindings) {
  auto files = ruleFixtures();
  ASSERT_FALSE(files.empty());
  for (const fs::path& p : files) {
    std::string text = test::readFile(p);
    auto want = expectations(text);
    auto got = lintPythonText(p.filename().string(), text);
    bool bad = p.stem().string().ends_with("_bad");
    if (bad) EXPECT_FALSE(want.empty()) << p.filename() << " has no # expect: annotation";
    else EXPECT_TRUE(want.empty()) << p.filename() << " is a good file and must not carry expectations";
    std::vector<bool> matched(got.size(), false);
    for (const Expected& e : want) {
      bool found = false;
      for (std::size_t i = 0; i < got.size() && !found; ++i)
        if (!matched[i] && got[i].rule == e.rule && got[i].line == e.line && (e.col == 0 || got[i].column == e.col))
          found = matched[i] = true;
      EXPECT_TRUE(found) << p.filename() << ": expected " << e.rule << " at line " << e.line
                         << (e.col ? ":" + std::to_string(e.col) : std::string()) << "; got:\n"
                         << show(got);
    }
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(matched[i]) << p.filename() << ": unexpected " << got[i].rule << " at " << got[i].line << ":"
                              << got[i].column << " " << got[i].message;
  }
}

TEST(DslRules, EveryDslRuleHasABadAndAGoodFixtureThatFiresIt) {
  fs::path dir = fs::path(test::fixturesDir()) / "dsl_rules";
  for (const RuleInfo& r : Catalogue::builtin().rules()) {
    if (r.family != "DSL" || r.id == "DSL001") continue;
    fs::path bad = dir / (r.id + "_bad.py"), good = dir / (r.id + "_good.py");
    ASSERT_TRUE(fs::exists(bad)) << bad;
    ASSERT_TRUE(fs::exists(good)) << good;
    auto want = expectations(test::readFile(bad));
    EXPECT_TRUE(std::any_of(want.begin(), want.end(), [&](const Expected& e) { return e.rule == r.id; }))
        << bad.filename() << " does not expect " << r.id;
  }
}

TEST(DslRules, EveryFindingCarriesAMessageAndAHint) {
  for (const fs::path& p : ruleFixtures())
    for (const Diagnostic& d : lintPythonText(p.filename().string(), test::readFile(p))) {
      EXPECT_FALSE(d.message.empty()) << d.rule;
      EXPECT_FALSE(d.hint.empty()) << d.rule << " in " << p.filename();
      EXPECT_GT(d.line, 0) << d.rule;
      EXPECT_GT(d.column, 0) << d.rule;
    }
}

// Programs the real compiler accepted (exit code 0) get no error-severity finding.
TEST(DslRules, CompilerAcceptedRealProgramsGetNoError) {
  fs::path root = fs::path(test::fixturesDir()) / "pypto-real";
  int linted = 0;
  for (const auto& e : fs::directory_iterator(root)) {
    fs::path prog = e.path() / "program.py", code = e.path() / "exit-code.txt";
    if (!fs::exists(prog) || !fs::exists(code)) continue;
    if (std::stoi(test::readFile(code)) != 0) continue;
    ++linted;
    for (const Diagnostic& d : lintPythonText(e.path().filename().string() + "/program.py", test::readFile(prog)))
      EXPECT_NE(d.severity, Severity::Error) << e.path().filename() << ": " << d.rule << " " << d.line << ":"
                                             << d.column << " " << d.message;
  }
  EXPECT_GE(linted, 5);
}

// PH001 mirror: same positions as the compiler's perf_hints.log for fixture 22 (loads at the call).
TEST(DslRules, SmallTransferHintMatchesTheCompilersPh001Lines) {
  fs::path prog = fs::path(test::fixturesDir()) / "pypto-real" / "22-perf-hint-default-outdir" / "program.py";
  std::set<int> lines;
  for (const Diagnostic& d : lintPythonText("program.py", test::readFile(prog)))
    if (d.rule == "DSL117") {
      lines.insert(d.line);
      EXPECT_EQ(d.severity, Severity::Info);
      EXPECT_NE(d.message.find("innermost dim = 128B (tile fp32[32]"), std::string::npos) << d.message;
    }
  EXPECT_EQ(lines, (std::set<int>{14, 15, 17}));
}

// A written plain entry tensor is certainly lost only when the host gets nothing else back or the entry
// returns it; a scratch / cache tensor of an entry with other outputs is a warning (upstream's qwen3
// decode writes k_cache through a pl.Out callee parameter and compares only `out`).
TEST(DslRules, AWrittenPlainEntryTensorBesideOtherOutputsIsAWarning) {
  std::string src = R"(import pypto.language as pl


@pl.jit.incore
def update(src: pl.Tensor, cache: pl.Out[pl.Tensor]):
    t = pl.load(src, [0, 0], [16, 64])
    pl.store(t, [0, 0], cache)
    return cache


@pl.jit
def step(x: pl.Tensor[[16, 64], pl.FP32], cache: pl.Tensor[[16, 64], pl.FP32],
         out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    cache = update(x, cache)
    out = update(x, out)
    return out
)";
  std::vector<Diagnostic> ds = lintPythonText("step.py", src);
  auto it = std::find_if(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.rule == "DSL109"; });
  ASSERT_NE(it, ds.end()) << show(ds);
  EXPECT_EQ(it->severity, Severity::Warning);
  EXPECT_NE(it->message.find("does not return it"), std::string::npos) << it->message;
  // Returned: the entry's result is certainly lost.
  std::string returned = src;
  returned.replace(returned.rfind("return out"), 10, "return cache");
  ds = lintPythonText("step.py", returned);
  it = std::find_if(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.rule == "DSL109"; });
  ASSERT_NE(it, ds.end()) << show(ds);
  EXPECT_EQ(it->severity, Severity::Error);
}

TEST(DslRules, SmallTransferThresholdIs128BytesOnA5) {
  std::string src = test::readFile(fs::path(test::fixturesDir()) / "dsl_rules" / "DSL117_bad.py");
  for (const Diagnostic& d : lintPythonText("a5.py", src, Platform::A5)) EXPECT_NE(d.rule, "DSL117") << d.message;
  std::string narrow = src;
  for (std::size_t at; (at = narrow.find("32]")) != std::string::npos;) narrow.replace(at, 2, "16");
  int hits = 0;
  for (const Diagnostic& d : lintPythonText("a5.py", narrow, Platform::A5))
    if (d.rule == "DSL117") {
      ++hits;
      EXPECT_NE(d.message.find(">= 128B for backend a5"), std::string::npos) << d.message;
    }
  EXPECT_EQ(hits, 3);
}

// A file tree-sitter cannot fully parse: one DSL001 at the error, the rules still run on the rest.
TEST(DslRules, RulesStillRunAroundASyntaxError) {
  std::string src =
      "import pypto.language as pl\n"
      "\n"
      "@pl.jit\n"
      "def f(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):\n"
      "    t = pl.load(x, [0, 0], [64, 128])\n"
      "    pl.store(t, [0, 0], y)\n"
      "    return y\n"
      "\n"
      "def broken(:\n"
      "    pass\n";
  auto ds = lintPythonText("partial.py", src);
  int syntax = 0, misplaced = 0;
  for (const Diagnostic& d : ds) {
    syntax += d.rule == "DSL001";
    misplaced += d.rule == "DSL101";
  }
  EXPECT_EQ(syntax, 1) << show(ds);
  EXPECT_EQ(misplaced, 2) << show(ds);
}

TEST(Suppression, CppPrefixLineAndFileForms) {
  SourceFile f;
  f.path = "k.cpp";
  f.text =
      "// port-check: ignore-file[ISA001]\n"
      "int a;  // port-check: ignore[AUTO001, AUTO002]\n"
      "int b;\n"
      "int c;\n"
      "const char* s = \"port-check: ignore[AUTO003]\";\n";
  Suppressions s = parseSuppressions(f, "//");
  ASSERT_EQ(s.entries.size(), 2u);
  EXPECT_TRUE(s.entries[0].file_level);
  EXPECT_EQ(s.entries[1].ids.size(), 2u);
  EXPECT_EQ(s.entries[1].ids[1].id, "AUTO002");
  EXPECT_EQ(s.entries[1].ids[1].column, 40);
  auto diag = [](std::string rule, int line) {
    Diagnostic d;
    d.rule = std::move(rule);
    d.file = "k.cpp";
    d.line = line;
    return d;
  };
  std::vector<Diagnostic> ds = {diag("AUTO001", 2), diag("AUTO001", 3), diag("AUTO001", 4), diag("ISA001", 5),
                                diag("AUTO003", 5)};
  s.apply("k.cpp", ds);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].line, 4);
  EXPECT_EQ(ds[1].rule, "AUTO003");  // a marker inside a string is not a comment
  EXPECT_TRUE(s.entries[0].ids[0].used);
  EXPECT_FALSE(s.entries[1].ids[1].used);
}

TEST(Suppression, PythonMarkerNeedsTheHashPrefix) {
  SourceFile f;
  f.path = "p.py";
  f.text = "x = 1  # port-check: ignore[DSL101]\ny = \"port-check: ignore[DSL102]\"\n#port-check:ignore[DSL103]\n";
  Suppressions s = parseSuppressions(f, "#");
  ASSERT_EQ(s.entries.size(), 2u);
  EXPECT_EQ(s.entries[0].ids[0].id, "DSL101");
  EXPECT_EQ(s.entries[1].ids[0].id, "DSL103");
}

}  // namespace
}  // namespace portcheck
