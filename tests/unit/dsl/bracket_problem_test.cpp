// A file that does not parse because of a bracket gets DSL001 in CPython's words, at the bracket
// CPython points to (checked against python3.11's ast.parse), and the DSL rules still run on the rest.
#include <gtest/gtest.h>

#include <string>

#include "lint/dsl/source_limits.h"
#include "lint/linters.h"
#include "lint/python_unit_support.h"

namespace portcheck {
namespace {

std::string said(const std::string& text) {
  std::optional<Diagnostic> d = pythonBracketProblem(test::sourceOf("k.py", text));
  if (!d) return "none";
  return std::to_string(d->line) + ":" + std::to_string(d->column) + " " + d->message;
}

TEST(BracketProblem, AnUnclosedCallIsNeverClosedAtItsOpener) {
  EXPECT_EQ(said("x = f(1, 2\n\ndef g():\n    return 1\n"), "1:6 '(' was never closed");
  // The innermost bracket left open, not the outer one.
  EXPECT_EQ(said("x = f(1, [2, 3\ny = 2\n"), "1:10 '[' was never closed");
  // A call spread over lines whose last line lacks the closer.
  EXPECT_EQ(said("x = f(1,\n      2\ny = 3\n"), "1:6 '(' was never closed");
}

TEST(BracketProblem, AnErrorOnTheOpenersOwnLineStaysAGenericSyntaxError) {
  // CPython: "invalid syntax" at ':' (its parser stops on the opener's line).
  EXPECT_EQ(said("def f(:\n    return x\n"), "none");
}

TEST(BracketProblem, UnmatchedAndMismatchedClosersAreTheTokenizersErrors) {
  EXPECT_EQ(said("x = 1)\n"), "1:6 unmatched ')'");
  EXPECT_EQ(said("z = [1, 2)\n"), "1:10 closing parenthesis ')' does not match opening parenthesis '['");
  EXPECT_EQ(said("z = [1,\n 2)\n"),
            "2:3 closing parenthesis ')' does not match opening parenthesis '[' on line 1");
}

TEST(BracketProblem, BracketsInStringsAndCommentsDoNotCount) {
  EXPECT_EQ(said("s = '(['  # ) ]\nt = \"\"\"\n)\n\"\"\"\nu = f(s)\n"), "none");
  EXPECT_EQ(said("x = f('(', g(1)\ny = 2\n"), "1:6 '(' was never closed");
}

TEST(BracketProblem, TheOtherRulesStillRunAfterAnUnclosedBracket) {
  const std::string text =
      "import pypto.language as pl\n"
      "\n"
      "\n"
      "@pl.jit\n"
      "def first(x: pl.Tensor[[128, 128], pl.FP32], y: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):\n"
      "    with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"first\"):\n"
      "        t = pl.load(x, [0, 0], [128, 128]\n"
      "        pl.store(t, [0, 0], y)\n"
      "    return y\n"
      "\n"
      "\n"
      "@pl.jit\n"
      "def second(x: pl.Tensor[[128, 128], pl.FP32], y: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):\n"
      "    for i in range(4):\n"
      "        t = pl.load(x, [0, 0], [128, 128])\n"
      "        pl.store(t, [0, 0], y)\n"
      "    return y\n";
  std::vector<Diagnostic> ds = test::lintPythonText("k.py", text);
  bool syntax = false, range_loop = false;
  for (const Diagnostic& d : ds) {
    if (d.rule == "DSL001") {
      syntax = true;
      EXPECT_EQ(d.line, 7);
      EXPECT_EQ(d.column, 20);
      EXPECT_EQ(d.message, "'(' was never closed");
    }
    if (d.rule == "DSL105" && d.line == 14) range_loop = true;
  }
  EXPECT_TRUE(syntax);
  EXPECT_TRUE(range_loop) << "the function after the broken one was not linted";
}

}  // namespace
}  // namespace portcheck
