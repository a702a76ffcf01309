// A compile that fails on the nanobind 3 trap (toolchain/nanobind_trap.h) reads as a parse error in the
// user's function; its diagnostics say it is the toolchain's and point at `port-check doctor`. The record
// follows the shared reference's wording (§8.2): the parser's ParserSyntaxError chained to nanobind's
// TypeError, as the adapter prints the traceback.
#include <gtest/gtest.h>

#include "compile_fixture_support.h"
#include "compiler/compile_record.h"
#include "compiler/nanobind_trap_hint.h"
#include "toolchain/nanobind_trap.h"

namespace portcheck {
namespace {

constexpr const char* kTypeError =
    "TypeError: __init__(): incompatible function arguments. The following argument types are supported:\n"
    "    1. __init__(self, valid_shape: collections.abc.Sequence[pypto.pypto_core.ir.Expr], stride: "
    "collections.abc.Sequence[pypto.pypto_core.ir.Expr], start_offset: pypto.pypto_core.ir.Expr) -> None\n"
    "\n"
    "Invoked with types: pypto.pypto_core.ir.TileView\n";

CompileRecord nanobindTrapRecord() {
  CompileRecord r = test::fixtureRecord("17-parse-missing-annotation-program");
  r.log = std::string("Traceback (most recent call last):\n"
                      "  File \"<pypto>/python/pypto/language/parser/type_resolver.py\", line 212, in resolve\n"
                      "    fractal = ir.TileView().fractal\n") +
          kTypeError +
          "\nThe above exception was the direct cause of the following exception:\n\n"
          "Traceback (most recent call last):\n"
          "  File \"<case>/program.py\", line 14, in <module>\n"
          "pypto.language.parser.diagnostics.exceptions.ParserSyntaxError: Failed to parse function "
          "'_hc_pre_separate'\n";
  r.exit_code = 1;
  r.adapter.present = true;
  r.adapter.status = "compile_error";
  r.adapter.exception_type = "pypto.language.parser.diagnostics.exceptions.ParserSyntaxError";
  r.adapter.exception_message = "Failed to parse function '_hc_pre_separate'";
  return r;
}

TEST(NanobindTrap, TheTypeErrorIsRecognisedOnlyWithTileViewOrTheParserAround) {
  EXPECT_TRUE(isNanobindTileViewError(kTypeError));
  EXPECT_TRUE(isNanobindTileViewError("Failed to parse function 'f': __init__(): incompatible function arguments."));
  // The same nanobind wording about another class, with no parse failure, is a different problem.
  EXPECT_FALSE(isNanobindTileViewError("TypeError: __init__(): incompatible function arguments. Invoked with types: int"));
  EXPECT_FALSE(isNanobindTileViewError("ParserSyntaxError: Failed to parse function 'f'"));
}

TEST(NanobindTrap, TheParseErrorItCausesPointsAtDoctorAndNanobind2) {
  CompileAnalysis a = analyzeCompile(nanobindTrapRecord(), Platform::A2A3);
  ASSERT_FALSE(a.diagnostics.empty());
  const Diagnostic& d = a.diagnostics.front();
  EXPECT_EQ(d.rule, "COMP001");
  EXPECT_EQ(d.message, "Failed to parse function '_hc_pre_separate'");
  EXPECT_EQ(d.hint.rfind("not the port: ", 0), 0u) << d.hint;
  EXPECT_NE(d.hint.find("'nanobind>=2,<3'"), std::string::npos) << d.hint;
  ASSERT_FALSE(d.notes.empty());
  EXPECT_NE(d.notes.back().message.find("`port-check doctor` checks it"), std::string::npos);
}

TEST(NanobindTrap, AnOrdinaryParseErrorKeepsItsOwnHint) {
  std::vector<Diagnostic> diagnostics(1);
  diagnostics[0].rule = "COMP001";
  diagnostics[0].hint = "Add a type annotation like: x: pl.Tensor[[64], pl.FP32]";
  EXPECT_FALSE(addNanobindTrapHints(diagnostics, "Error: Parameter 'x' missing type annotation"));
  EXPECT_EQ(diagnostics[0].hint, "Add a type annotation like: x: pl.Tensor[[64], pl.FP32]");
  EXPECT_TRUE(diagnostics[0].notes.empty());
}

}  // namespace
}  // namespace portcheck
