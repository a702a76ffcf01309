// Bugs fuzzing found (fuzz/, docs/robustness.md), each pinned with the smallest input that showed it
// and the behaviour after the fix. The raw inputs that found them are in tests/fixtures/fuzz/<target>/
// and are replayed by FuzzCorpus.* in every build.
#include <gtest/gtest.h>

#include "clangcheck/clang_output.h"
#include "compiler/compile_record.h"
#include "compiler/legacy_memory_report_parser.h"
#include "compiler/memory_dump_parser.h"
#include "compiler/memory_error_parser.h"
#include "dsl/dsl_model.h"
#include "lint/linters.h"
#include "lint/python_unit_support.h"
#include "lint/sram_lint.h"
#include "test_support.h"
#include "workspace/config.h"

namespace portcheck {
namespace {

const std::string kLegacyHead = "=== Memory Usage Report ===\nPass: AllocateMemoryAddr\nBackend: 910B_PTO\n";

// legacy_memory_report: std::stoi threw std::out_of_range on a function count past INT_MAX.
TEST(FuzzRegression, LegacyReportWithAHugeFunctionCountIsRead) {
  auto r = parseLegacyMemoryReport(kLegacyHead + "Functions: 64444444444444444444444 InCore\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->functions_declared, 0);
  EXPECT_EQ(r->function_kind, "InCore");
}

// legacy_memory_report: a size of 1e19 KB overflowed the int64 byte bounds (UBSan: signed overflow),
// and a 400-digit figure made std::stod throw.
TEST(FuzzRegression, LegacyReportRowsWithAbsurdSizesAreSkipped) {
  auto r = parseLegacyMemoryReport(kLegacyHead +
                                   "--- f ---\n"
                                   "  Vec | 9999999999999999999.0 KB | 192.0 KB | 76.0% | 7\n"
                                   "  Mat | " + std::string(400, '9') + " B | 512.0 KB | 1.0% | 1\n"
                                   "  Acc | 48.0 KB | 128.0 KB | 37.5% | 2\n");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->rows.size(), 1u);
  EXPECT_EQ(r->rows[0].space, "Acc");
  EXPECT_EQ(r->rows[0].used_bytes, 49152);
}

// kernel_model: a declaration tree-sitter recovered without a type node made the model read the text
// of a null node (SEGV in ts_node_end_byte).
TEST(FuzzRegression, KernelDeclarationWithoutATypeIsLinted) {
  std::string bytes = test::readFile(std::filesystem::path(test::fixturesDir()) / "fuzz" / "kernel_model" /
                                     "declaration-without-type");
  ASSERT_FALSE(bytes.empty());
  ReadResult r = sourceFromBytes(bytes, "k.cpp");
  ASSERT_TRUE(r.file);
  Config config;
  LintSettings settings;
  settings.config = &config;
  std::vector<Diagnostic> ds = lintKernelFile(*r.file, settings);
  bool syntax = false;
  for (const Diagnostic& d : ds) syntax |= d.rule == "ISA001";
  EXPECT_TRUE(syntax);  // the syntax error is reported, the rest still modelled
}

// pass_dump: a MemRef size past int64 made std::stoll throw out of the dump parser.
TEST(FuzzRegression, PassDumpFiguresPastInt64AreSkipped) {
  PassDump d = parsePassDump(
      "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV)\n    def k(self):\n"
      "        mem_vec_0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 99999999999999999999999)\n"
      "        t: pl.Tile[[64, 128], pl.FP32, pl.MemRef(mem_vec_0, 0, 99999999999999999999999), pl.Mem.Vec] = x\n"
      "        u: pl.Tile[[64, 128], pl.FP32, pl.MemRef(mem_vec_0, 0, 32768), pl.Mem.Vec] = x\n",
      "AllocateMemoryAddr");
  ASSERT_EQ(d.functions.size(), 1u);
  EXPECT_TRUE(d.functions[0].allocs.empty());
  ASSERT_EQ(d.functions[0].tiles.size(), 1u);
  EXPECT_EQ(d.functions[0].tiles[0].var, "u");
}

// compile_log: a function name with regex metacharacters from a `Failed to ...` line was pasted into a
// std::regex, which threw (std::regex_error) out of the analysis.
TEST(FuzzRegression, FunctionNamesWithRegexCharactersDoNotThrow) {
  test::TempDir dir;
  dir.write("program.py", "def k(x):\n    t = x\n");
  CompileRecord r;
  r.project = "p";
  r.source_root = dir.path();
  r.source_root_display = "projects/p/pypto_src";
  r.out_dir = dir.path() / "out";
  r.out_dir_display = "build/p";
  r.exit_code = 1;
  for (const char* name : {"k(", "k[", "a)b", "(?", "t["}) {
    r.log = std::string("Failed to compile function '") + name + "': RuntimeError: boom\n";
    CompileAnalysis a = analyzeCompile(r, Platform::A2A3);
    EXPECT_FALSE(a.errors.empty()) << name;
  }
  for (const char* file : {"function-name-with-paren", "function-name-with-bracket"}) {
    r.log = test::readFile(std::filesystem::path(test::fixturesDir()) / "fuzz" / "compile_log" / file);
    EXPECT_NO_THROW(analyzeCompile(r, Platform::A2A3)) << file;
  }
}

// Found by the 30-second fuzz runs of the CI sanitizer stage (session 3).

// clang_output: a line number past INT_MAX made std::stoi throw out of the clang output parser.
TEST(FuzzRegression, ClangLinesPastIntAreUnknownNotAThrow) {
  auto ms = clangcheck::parseClangOutput(
      "k.cpp:155099999999999999:3: error: no matching function for call to 'TROWSUM'\n"
      "k.cpp:12:7: error: unknown type name '__ubuf__'\n");
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_EQ(ms[0].line, 0);  // unknown, as for a message without a line
  EXPECT_EQ(ms[0].column, 3);
  EXPECT_EQ(ms[1].line, 12);
  std::string raw = test::readFile(std::filesystem::path(test::fixturesDir()) / "fuzz" / "clang_output" /
                                   "line-number-past-int");
  EXPECT_NO_THROW(clangcheck::parseClangOutput(raw));
}

// memory_error: a usage figure past int64 made std::stoll throw; it is no overflow message PyPTO prints.
TEST(FuzzRegression, OverflowSentenceWithAFigurePastInt64IsNotOne) {
  EXPECT_FALSE(parseOverflowSentence("Vec buffer usage (" + std::string(60, '6') +
                                     " bytes) exceeds platform limit (188416 bytes)."));
  auto f = parseOverflowSentence("Vec buffer usage (262144 bytes) exceeds platform limit (188416 bytes).");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->used, 262144);
  EXPECT_EQ(f->limit, 188416);
}

// dsl_model: newResult took the result type by reference into the function's value list and read it
// after adding a value had reallocated that list (ASan: heap-use-after-free). The input that found it:
// a parameter annotation of invalid bytes in a half-written jit function.
TEST(FuzzRegression, TheModelOfTheInputThatFreedATypeUnderItIsBuilt) {
  std::string bytes = test::readFile(std::filesystem::path(test::fixturesDir()) / "fuzz" / "dsl_model" /
                                     "type-of-a-value-reallocated-away");
  ASSERT_FALSE(bytes.empty());
  std::vector<Diagnostic> ds = test::lintPythonText("k.py", bytes);
  bool syntax = false;
  for (const Diagnostic& d : ds) syntax |= d.rule == "DSL001";
  EXPECT_TRUE(syntax);  // not UTF-8: reported; the sanitizer build checks the model's memory
}

// dsl_model (10-minute campaign, session 3): the task graph named a callee's parameters after the
// caller's argument expressions and indexed the expression list with -1 for an argument that did not
// parse (UBSan: offset applied to a null pointer). Three inputs found it; each is estimated cleanly now.
TEST(FuzzRegression, ACallWhoseArgumentDidNotParseGetsATaskGraph) {
  for (const char* name : {"call-argument-that-did-not-parse", "call-argument-that-did-not-parse-2",
                           "call-argument-that-did-not-parse-3"}) {
    SCOPED_TRACE(name);
    std::string bytes = test::readFile(std::filesystem::path(test::fixturesDir()) / "fuzz" / "dsl_model" / name);
    ASSERT_FALSE(bytes.empty());
    Config config;
    PythonUnit unit = test::pythonUnitOf("projects/p/pypto_src/program.py", bytes);
    unit.project = "p";
    LintSettings settings{Platform::A2A3, &config};
    dsl::ProgramModel model = dsl::buildProgramModel(unit.files);
    std::vector<SramRow> sram;
    std::vector<Diagnostic> ds = estimatePythonModel(unit, model, settings, sram);
    std::vector<Diagnostic> lint;
    lintPythonModel(unit, model, settings, lint);
    bool syntax = false;
    for (const Diagnostic& d : lint) syntax |= d.rule == "DSL001";
    EXPECT_TRUE(syntax);  // half-written: reported, and the estimate of what parses ran to the end
  }
}

}  // namespace
}  // namespace portcheck
