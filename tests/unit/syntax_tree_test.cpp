// The pinned tree-sitter grammars parse Python and C++ through the SyntaxTree wrapper.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parse/syntax_tree.h"

namespace portcheck {
namespace {

TEST(SyntaxTree, ParsesAPyptoProgram) {
  std::string src =
      "import pypto.language as pl\n\n"
      "@pl.jit\n"
      "def add(a: pl.Tensor[[128, 128], pl.FP32], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):\n"
      "    with pl.at(level=pl.Level.CORE_GROUP):\n"
      "        t = pl.load(a, [0, 0], [128, 128])\n"
      "        pl.store(t, [0, 0], c)\n"
      "    return c\n";
  SyntaxTree t = SyntaxTree::parse(Language::Python, src);
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t.hasError());
  EXPECT_EQ(nodeType(t.root()), "module");
  TSNode def = ts_node_named_child(t.root(), 1);
  EXPECT_EQ(nodeType(def), "decorated_definition");
  TSNode fn = childByField(def, "definition");
  EXPECT_EQ(t.nodeText(childByField(fn, "name")), "add");
}

TEST(SyntaxTree, FindsTheFirstPythonSyntaxError) {
  std::string src = "def f(a:\n    return a\n";
  SyntaxTree t = SyntaxTree::parse(Language::Python, src);
  ASSERT_TRUE(t.hasError());
  EXPECT_FALSE(isNull(t.firstError()));
}

TEST(SyntaxTree, ParsesAPtoKernel) {
  std::string src =
      "#include <pto/pto-inst.hpp>\n"
      "using namespace pto;\n"
      "using TileT = Tile<TileType::Vec, float, 16, 256, BLayout::RowMajor>;\n"
      "__aicore__ void add(__gm__ float* x) {\n"
      "  TileT a;\n"
      "  TLOAD(a, x);\n"
      "}\n";
  SyntaxTree t = SyntaxTree::parse(Language::Cpp, src);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(nodeType(t.root()), "translation_unit");
  EXPECT_GE(ts_node_named_child_count(t.root()), 4u);
}

// The grammars' lexers test identifier characters through harness/grammars/fast_set_contains.h: ASCII by
// the first ranges of a set, every other character by the binary search, as the generated code does.
TEST(SyntaxTree, NamesOfEveryAlphabetAreIdentifiers) {
  std::string py = "x_1 = 1\nZ9 = x_1\n\u00e9t\u00e9 = 2\n\u540d\u524d = \u00e9t\u00e9\n\u0394x = 3\n_ = 4\n";
  SyntaxTree t = SyntaxTree::parse(Language::Python, py);
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t.hasError());
  std::vector<std::string> names;
  for (TSNode stmt : namedChildren(t.root())) {
    TSNode assign = ts_node_named_child(stmt, 0);
    ASSERT_EQ(nodeType(assign), "assignment");
    names.emplace_back(t.nodeText(childByField(assign, "left")));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"x_1", "Z9", "\u00e9t\u00e9", "\u540d\u524d", "\u0394x", "_"}));
  // Characters that are no identifier stay out of names: `a$b` is an error, `a+b` two names.
  EXPECT_TRUE(SyntaxTree::parse(Language::Python, std::string("a$b = 1\n")).hasError());
  std::string cpp = "int \u00e9l\u00e8ve = 1; int v2_ = \u00e9l\u00e8ve + 1;\n";
  SyntaxTree c = SyntaxTree::parse(Language::Cpp, cpp);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c.hasError());
  EXPECT_EQ(ts_node_named_child_count(c.root()), 2u);
}

TEST(SyntaxTree, DeeplyNestedInputDoesNotCrash) {
  std::string src = "x = " + std::string(20000, '(') + "1" + std::string(20000, ')') + "\n";
  SyntaxTree t = SyntaxTree::parse(Language::Python, src);
  EXPECT_TRUE(t.ok());
  (void)t.firstError();
}

}  // namespace
}  // namespace portcheck
