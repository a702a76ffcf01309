// The model builder on half-written, hostile and large input: no crash, bounded work.
#include <chrono>

#include "dsl_test_support.h"
#include "lint/linters.h"
#include "workspace/config.h"

namespace portcheck::test {
namespace {

TEST(DslRobustness, PartialProgramsKeepWhatParses) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl
TILE = 64

@pl.jit
def good(x: pl.Tensor[[TILE, TILE], pl.FP32], y: pl.Out[pl.Tensor[[TILE, TILE], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [TILE, TILE])
        pl.store(t, [0, 0], y)
    return y

@pl.jit
def half(x: pl.Tensor[[TILE, TILE], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [TILE,
        u = pl.exp(t
)");
  ASSERT_TRUE(m.syntax_error);
  EXPECT_GE(m.syntax_error->loc.line, 13);
  const dsl::Function& g = fn(m, "good");
  EXPECT_EQ(g.kind, dsl::FunctionKind::JitEntry);
  EXPECT_EQ(val(g, "t").type.shape.str(), "[64, 64]");
  EXPECT_EQ(g.regions.size(), 1u);
}

TEST(DslRobustness, GarbageAndEmptyInputDoNotCrash) {
  for (const char* text : {"", "\n\n", "@@@@", "def", "def f(:\n  with", "class C(:\n  @pl.function(\n",
                           "import pypto.language as pl\n@pl.jit\ndef f(x: pl.Tensor[[", ")))(((",
                           "for for for", "x = [1, 2,\n", "\xff\xfe\x00garbage"}) {
    dsl::FileModel m = fileModelOf(text);
    EXPECT_TRUE(m.parsed) << text;
  }
}

TEST(DslRobustness, DeepNestingIsCutOffNotRecursedInto) {
  // 20000 nested parentheses in a DSL function
  std::string expr(20000, '(');
  expr += "1";
  expr += std::string(20000, ')');
  dsl::FileModel p = fileModelOf("import pypto.language as pl\n@pl.jit\ndef f(x: pl.Tensor):\n    y = " + expr +
                                 "\n    return x\n");
  EXPECT_TRUE(p.truncated);
  EXPECT_EQ(fn(p, "f").stmts.back().kind, dsl::StmtKind::Return);
  bool too_deep = false;
  for (int e : fn(p, "f").unsupported_exprs)
    if (fn(p, "f").exprs[static_cast<std::size_t>(e)].name == "TooDeep") too_deep = true;
  EXPECT_TRUE(too_deep);
  // 140 nested ifs (tree-sitter-python still parses these; 400 levels it rejects as a syntax error)
  for (int depth : {140, 400}) {
    std::string src = "import pypto.language as pl\n@pl.jit\ndef f(x: pl.Tensor):\n";
    std::string indent = "    ";
    for (int i = 0; i < depth; ++i) {
      src += indent + "if x:\n";
      indent += " ";
    }
    src += indent + "z = pl.load(x, [0], [8])\n";
    src += "    return x\n";
    dsl::FileModel m = fileModelOf(src);
    if (depth == 400) {
      EXPECT_TRUE(m.syntax_error);
      continue;
    }
    EXPECT_TRUE(m.truncated);
    const dsl::Function& f = fn(m, "f");
    bool cut = false;
    for (const dsl::Stmt& s : f.stmts) {
      EXPECT_LE(s.depth, dsl::kMaxNesting + 2);
      if (s.kind == dsl::StmtKind::Unsupported && s.unsupported == "TooDeep") cut = true;
    }
    EXPECT_TRUE(cut);
    EXPECT_EQ(f.stmts.back().kind, dsl::StmtKind::Return);
  }
  // a long elif chain and a deep constant expression at module level
  std::string chain = "import pypto.language as pl\nN = " + std::string(5000, '(') + "2" + std::string(5000, ')') +
                      "\n@pl.jit\ndef g(x: pl.Tensor):\n    if x == 0:\n        pass\n";
  for (int i = 1; i < 300; ++i) chain += "    elif x == " + std::to_string(i) + ":\n        pass\n";
  chain += "    return x\n";
  dsl::FileModel c = fileModelOf(chain);
  EXPECT_EQ(fn(c, "g").stmts.back().kind, dsl::StmtKind::Return);
  EXPECT_EQ(c.constant("N"), nullptr);  // too deep to evaluate: unknown, not a crash
}

TEST(DslRobustness, TwoHundredFixtureSizedFilesBuildQuickly) {
  std::filesystem::path p = std::filesystem::path(fixturesDir()) / "pypto-real" / "05-rows-loop" / "program.py";
  ReadResult r = readSourceFile(p, "program.py");
  ASSERT_TRUE(r.file);
  std::vector<SourceFile> files(200, *r.file);
  for (std::size_t i = 0; i < files.size(); ++i) files[i].path = "f" + std::to_string(i) + ".py";
  auto start = std::chrono::steady_clock::now();
  dsl::ProgramModel pm = dsl::buildProgramModel(files);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(pm.files.size(), 200u);
  EXPECT_LT(ms, 2000.0);  // generous for sanitizer builds; a release build takes a few ms
}

TEST(DslRobustness, LinterReportsTheSyntaxErrorOnceAndStillModelsTheUnit) {
  PythonUnit unit;
  unit.files.push_back(sourceOf("a.py", "import pypto.language as pl\n\ndef f(:\n    pass\n"));
  unit.files.push_back(sourceOf("b.py", "import pypto.language as pl\n"));
  Config config;
  LintSettings settings;
  settings.config = &config;
  std::vector<Diagnostic> ds = lintPythonUnit(unit, settings);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].rule, "DSL001");
  EXPECT_EQ(ds[0].file, "a.py");
  EXPECT_EQ(ds[0].line, 3);
}

}  // namespace
}  // namespace portcheck::test
