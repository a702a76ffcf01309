// The PROJ rules on a project's sources (PROJ002 to PROJ007), data-driven: every
// tests/fixtures/proj_rules/<ID>_bad*/ and <ID>_good*/ folder is a project, linted in a workspace of its own,
// and its PROJ findings must equal the annotations of its files exactly: `# expect: ID ID ...` on the line
// of the findings, `# expect-file: ID` for a finding of the file as a whole. Good projects carry none.
// Also: golden.py read statically (literals, numbers, dtypes), the contract reader, the staged-tree path.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <tuple>

#include "lint/lint_engine.h"
#include "lint/proj/contract.h"
#include "lint/proj/golden_source.h"
#include "lint/proj/project_check.h"
#include "rules/catalogue.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using ProjFinding = std::tuple<std::string, std::string, int>;  // rule, file, line (0: the file itself)

std::vector<fs::path> projFixtures() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(test::fixturesDir()) / "proj_rules"))
    if (e.is_directory()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The annotations of every file of a fixture project, as findings of projects/<name>/...
std::vector<ProjFinding> expectedProjFindings(const fs::path& fixture) {
  static const std::regex kRule(R"(PROJ\d{3})");
  std::vector<ProjFinding> out;
  const std::string name = fixture.filename().string();
  for (const auto& e : fs::recursive_directory_iterator(fixture)) {
    if (!e.is_regular_file()) continue;
    const std::string file = "projects/" + name + "/" + fs::relative(e.path(), fixture).generic_string();
    std::istringstream in(test::readFile(e.path()));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      for (const char* tag : {"# expect:", "# expect-file:"}) {
        auto at = line.find(tag);
        if (at == std::string::npos) continue;
        std::string rest = line.substr(at);
        for (std::sregex_iterator it(rest.begin(), rest.end(), kRule), end; it != end; ++it)
          out.emplace_back((*it)[0], file, std::string(tag) == "# expect:" ? n : 0);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The project linted in a workspace of its own: its PROJ findings.
std::vector<ProjFinding> lintProjFixture(const fs::path& fixture, std::string* text = nullptr) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  const std::string name = fixture.filename().string();
  fs::create_directories(ws / "projects");
  fs::copy(fixture, ws / ("projects/" + name), fs::copy_options::recursive);
  auto o = test::optionsIn(ws.path(), Format::Json);
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"projects/" + name}, io); });
  std::vector<ProjFinding> out;
  json j = json::parse(r.out);
  for (const json& d : j["diagnostics"]) {
    std::string rule = d["rule"];
    if (rule.rfind("PROJ", 0) != 0) continue;
    int line = d.contains("line") && d["line"].is_number() ? d["line"].get<int>() : 0;
    out.emplace_back(rule, d["file"].get<std::string>(), line);
    if (text) *text += rule + " " + d["file"].get<std::string>() + ":" + std::to_string(line) + " " +
                       d["message"].get<std::string>() + "\n";
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string showProjFindings(const std::vector<ProjFinding>& fs) {
  std::string s;
  for (const auto& [rule, file, line] : fs) s += "  " + rule + " " + file + ":" + std::to_string(line) + "\n";
  return s;
}

TEST(ProjRules, EveryFixtureReportsExactlyItsAnnotatedProjFindings) {
  auto fixtures = projFixtures();
  ASSERT_FALSE(fixtures.empty());
  for (const fs::path& f : fixtures) {
    const std::string name = f.filename().string();
    auto want = expectedProjFindings(f);
    std::string messages;
    auto got = lintProjFixture(f, &messages);
    if (name.find("_bad") != std::string::npos) EXPECT_FALSE(want.empty()) << name << " has no # expect: annotation";
    else EXPECT_TRUE(want.empty()) << name << " is a good project and must not carry expectations";
    EXPECT_EQ(got, want) << name << ": expected\n" << showProjFindings(want) << "got\n" << messages;
  }
}

TEST(ProjRules, EveryContentRuleHasABadAndAGoodFixtureThatFiresIt) {
  fs::path dir = fs::path(test::fixturesDir()) / "proj_rules";
  for (const RuleInfo& r : Catalogue::builtin().rules()) {
    if (r.family != "PROJ" || r.id == "PROJ001") continue;  // PROJ001: missing_golden_test.cpp
    fs::path bad = dir / (r.id + "_bad"), good = dir / (r.id + "_good");
    ASSERT_TRUE(fs::is_directory(bad)) << bad;
    ASSERT_TRUE(fs::is_directory(good)) << good;
    auto want = expectedProjFindings(bad);
    EXPECT_TRUE(std::any_of(want.begin(), want.end(), [&](const ProjFinding& x) { return std::get<0>(x) == r.id; }))
        << bad.filename() << " does not expect " << r.id;
  }
}

TEST(ProjRules, ProjFindingsNameTheRuleAndCarryAHint) {
  std::string text;
  lintProjFixture(fs::path(test::fixturesDir()) / "proj_rules" / "PROJ005_bad", &text);
  EXPECT_NE(text.find("never reads params[\"seed\"]"), std::string::npos) << text;
  text.clear();
  lintProjFixture(fs::path(test::fixturesDir()) / "proj_rules" / "PROJ007_bad", &text);
  EXPECT_NE(text.find("RTOL = 0.01 is far looser than the computation justifies for output 'out' (float32), bound 0.001"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("skill golden-and-tolerances"), std::string::npos) << text;
  text.clear();
  lintProjFixture(fs::path(test::fixturesDir()) / "proj_rules" / "PROJ004_bad", &text);
  EXPECT_NE(text.find("the entry's parameter 'x' has a pl.dynamic dim"), std::string::npos) << text;
}

// ---- golden.py read statically

struct GoldenText {
  explicit GoldenText(std::string text) {
    file.path = "golden.py";
    file.text = std::move(text);
  }
  SourceFile file;
};

TEST(GoldenSource, LiteralsAreReadAsAstLiteralEvalReadsThem) {
  GoldenText g(
      "A = {\"k\": [1, -2, 3.5e-3], 'b': (True, None), \"s\": \"x\" \"y\"}\n"
      "B = {\"k\": float(\"inf\"), **other}\n"
      "C = 2.0 ** -8\n");
  proj::GoldenSource src(g.file);
  proj::PyLiteral a = src.literal(src.assigned("A"));
  ASSERT_EQ(a.kind, proj::PyLiteral::Kind::Dict);
  EXPECT_EQ(a.firstNonLiteral(), nullptr);
  const proj::PyLiteral* k = a.get("k");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->elems.size(), 3u);
  EXPECT_EQ(k->elems[1].i, -2);
  EXPECT_DOUBLE_EQ(k->elems[2].f, 3.5e-3);
  EXPECT_EQ(a.get("s")->s, "xy");
  EXPECT_EQ(a.get("b")->elems[0].kind, proj::PyLiteral::Kind::Bool);
  proj::PyLiteral b = src.literal(src.assigned("B"));
  ASSERT_NE(b.firstNonLiteral(), nullptr);
  EXPECT_EQ(b.firstNonLiteral()->text, "float(\"inf\")");
  EXPECT_EQ(src.literal(src.assigned("C")).kind, proj::PyLiteral::Kind::Other);
  ASSERT_TRUE(src.number(src.assigned("C")));
  EXPECT_DOUBLE_EQ(*src.number(src.assigned("C")), 1.0 / 256);
}

TEST(GoldenSource, NumbersFoldThroughModuleConstants) {
  GoldenText g("K = 4096\nU = 2 ** -24\nRTOL = K ** 0.5 * U * 4\nATOL = (1e-5)\nBAD = K * unknown\n");
  proj::GoldenSource src(g.file);
  ASSERT_TRUE(src.number(src.assigned("RTOL")));
  EXPECT_NEAR(*src.number(src.assigned("RTOL")), 64.0 * 4 / (1 << 24), 1e-15);
  EXPECT_DOUBLE_EQ(*src.number(src.assigned("ATOL")), 1e-5);
  EXPECT_FALSE(src.number(src.assigned("BAD")));
}

TEST(GoldenSource, TensorDtypesComeFromTheSpecsThenFromGenerateInputs) {
  GoldenText g(
      "import torch\n"
      "__outputs__ = [\"y\", \"z\"]\n"
      "def build_tensor_specs(params=None):\n"
      "    return [{\"name\": \"x\", \"shape\": [4], \"dtype\": \"bfloat16\", \"is_output\": False},\n"
      "            {\"name\": \"y\", \"shape\": [4], \"dtype\": \"float32\", \"is_output\": True}]\n"
      "def generate_inputs(params):\n"
      "    z = torch.zeros(4).to(torch.float16)\n"
      "    w = torch.randn(4, generator=g).bfloat16()\n"
      "    return [(\"x\", x), (\"y\", torch.zeros(4, dtype=torch.float64)), (\"z\", z), (\"w\", w), (\"u\", u)]\n");
  proj::GoldenSource src(g.file);
  std::map<std::string, std::pair<proj::TensorDtype, bool>> seen;
  for (const proj::GoldenTensor& t : src.tensors()) seen[t.name] = {t.dtype, t.is_output};
  EXPECT_EQ(seen["x"], std::make_pair(proj::TensorDtype::BFloat16, false));
  EXPECT_EQ(seen["y"], std::make_pair(proj::TensorDtype::Float32, true));  // the spec wins
  EXPECT_EQ(seen["z"], std::make_pair(proj::TensorDtype::Float16, true));
  EXPECT_EQ(seen["w"], std::make_pair(proj::TensorDtype::BFloat16, false));
  EXPECT_EQ(seen["u"].first, proj::TensorDtype::Unknown);
}

TEST(Contract, AValidContractHasNoProblemAndReadsItsParts) {
  GoldenText g(
      "__outputs__ = [\"out\", \"q\"]\n"
      "CONTRACT = {\n"
      "    \"kind\": \"quantize\", \"seeds\": 5, \"masked\": False, \"shapes\": \"parametric\",\n"
      "    \"cases\": {\"base\": {\"category\": \"base\"}, \"big.1\": {\"category\": \"large\", \"params\": {\"s\": 1e4}}},\n"
      "    \"compare\": {\"q\": {\"max_steps\": {\"1\": 10, \"2\": 0}}, \"out\": {\"rtol\": 1e-3, \"atol\": 0, \"pass_rate\": 0.999}},\n"
      "}\n");
  proj::GoldenSource src(g.file);
  std::optional<proj::Contract> c = proj::readContract(src);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->problems.empty()) << c->problems[0].message;
  EXPECT_EQ(c->kind, "quantize");
  EXPECT_EQ(c->shapes, "parametric");
  EXPECT_TRUE(c->hasCategory("large"));
  ASSERT_EQ(c->compare.size(), 2u);
  EXPECT_TRUE(c->compare[0].max_steps);
  EXPECT_DOUBLE_EQ(*c->compare[1].pass_rate, 0.999);
  EXPECT_EQ(proj::requiredCategories("quantize", false, true),
            (std::vector<std::string>{"large", "zero", "tail", "prime"}));
}

TEST(Contract, NoContractIsNulloptAndSeedsBelowThreeAreAProblem) {
  GoldenText none("RTOL = 1e-5\n");
  EXPECT_FALSE(proj::readContract(proj::GoldenSource(none.file)));
  GoldenText two("CONTRACT = {\"kind\": \"other\", \"seeds\": 2, \"cases\": {\"b\": {\"category\": \"base\"}}}\n");
  proj::GoldenSource src(two.file);
  std::optional<proj::Contract> c = proj::readContract(src);
  ASSERT_TRUE(c);
  ASSERT_EQ(c->problems.size(), 1u);
  EXPECT_NE(c->problems[0].message.find("at least 3 seeds"), std::string::npos) << c->problems[0].message;
  EXPECT_EQ(c->problems[0].loc.line, 1);
}

// The git hook lints staged blobs: the source checks run on them as on files read from disk.
TEST(ProjRules, SourceChecksRunOnAStagedTree) {
  test::TempDir ws;
  Config config;
  LintSettings settings{Platform::A2A3, &config};
  MemoryUnit unit;
  Project p;
  p.name = "p";
  p.dir = ws.path() / "projects/p";
  p.pypto_src = p.dir / "pypto_src";
  p.tree = std::vector<std::string>{"golden.py", "orchestration.py"};
  unit.project = p;
  unit.sources.push_back(*sourceFromBytes("RTOL = 0.75\n__outputs__ = [\"y\"]\n", "projects/p/pypto_src/golden.py").file);
  unit.sources.push_back(*sourceFromBytes("from golden import RTOL\n", "projects/p/pypto_src/orchestration.py").file);
  LintOutcome out = lintMemoryUnits(Workspace{ws.path()}, {unit}, settings, 1);
  std::vector<std::string> rules;
  for (const Diagnostic& d : out.diagnostics) rules.push_back(d.rule + " " + d.file + ":" + std::to_string(d.line));
  std::sort(rules.begin(), rules.end());
  EXPECT_EQ(rules, (std::vector<std::string>{"PROJ002 projects/p/pypto_src/golden.py:0",
                                             "PROJ006 projects/p/pypto_src/orchestration.py:1",
                                             "PROJ007 projects/p/pypto_src/golden.py:1"}));
}

// A pypto-lib block file linted on its own is read as its block's golden.py (docs/contract.md §8): PROJ002
// when it declares no contract, PROJ005 when its build_tensor_specs(params) ignores the seed. Other files of
// pypto-lib (helpers, tests) are not blocks.
TEST(ProjRules, BlockFilesAreCheckedAsTheirBlocksGoldenPy) {
  test::TempDir ws;
  ws.write(".git/HEAD", "ref: refs/heads/main\n");
  const std::string entry =
      "import pypto.language as pl\n\n@pl.jit\ndef blk(x: pl.Tensor[[8, 8], pl.FP32], y: pl.Out[pl.Tensor[[8, 8], "
      "pl.FP32]]):\n    return y\n\n";
  const std::string contract =
      "CONTRACT = {\"kind\": \"elementwise\", \"seeds\": [1, 2, 3], \"cases\": {\"base\": {\"category\": \"base\"}}}\n";
  ws.write("pypto-lib/plain/plain.py", entry + "RTOL = 1e-5\n");
  ws.write("pypto-lib/seedless/seedless.py",
           entry + contract + "\ndef build_tensor_specs(params=None):\n    return _specs(SEED)\n");
  ws.write("pypto-lib/seeded/seeded.py",
           entry + contract + "\ndef build_tensor_specs(params=None):\n    params = params or {}\n"
                              "    return _specs(params.get(\"seed\", SEED))\n");
  ws.write("pypto-lib/seeded/helpers.py", "RTOL = 1e-5\n");
  auto o = test::optionsIn(ws.path(), Format::Json);
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"pypto-lib"}, io); });
  const json report = json::parse(r.out);
  std::vector<std::string> got;
  for (const json& d : report["diagnostics"]) {
    const std::string rule = d["rule"];
    if (rule.rfind("PROJ", 0) != 0) continue;
    const int line = d["line"].is_number() ? d["line"].get<int>() : 0;
    got.push_back(rule + " " + d["file"].get<std::string>() + ":" + std::to_string(line));
    if (rule == "PROJ002") EXPECT_NE(d["message"].get<std::string>().find("the block file of 'plain'"), std::string::npos);
    if (rule == "PROJ005") EXPECT_NE(d["message"].get<std::string>().find("build_tensor_specs()"), std::string::npos);
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"PROJ002 pypto-lib/plain/plain.py:0",
                                           "PROJ005 pypto-lib/seedless/seedless.py:9"}))
      << r.out;
}

TEST(ProjRules, BlockNameIsTheFolderOfAFileNamedAfterIt) {
  EXPECT_EQ(blockNameOf("pypto-lib/layer_norm/layer_norm.py"), "layer_norm");
  EXPECT_EQ(blockNameOf("pypto-lib/layer_norm/test_layer_norm.py"), "");
  EXPECT_EQ(blockNameOf("pypto-lib/block_testing.py"), "");
  EXPECT_EQ(blockNameOf("projects/x/pypto_src/golden.py"), "");
  EXPECT_EQ(blockNameOf("pypto-lib/a/b/a.py"), "");
}

}  // namespace
}  // namespace portcheck
