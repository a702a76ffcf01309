// The pinned tree-sitter grammars parse Python and C++ through the SyntaxTree wrapper.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "parse/syntax_tree.h"
#include "test_support.h"

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

// nodeType answers from a table of the language's symbol names: the same name as ts_node_type for every
// node of every fixture, aliased nodes (C++ type_identifier), error and missing nodes included.
TEST(SyntaxTree, NodeTypeIsTheNameTreeSitterGivesEveryNode) {
  std::map<std::string, long> seen;
  auto walk = [&](Language lang, const std::string& text) {
    SyntaxTree t = SyntaxTree::parse(lang, text);
    ASSERT_TRUE(t.ok());
    test::forEachNode(t.root(), [&](TSNode n) {
      ASSERT_EQ(nodeType(n), std::string_view(ts_node_type(n)));
      ++seen[std::string(nodeType(n))];
    });
  };
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(test::fixturesDir())) {
    const std::string ext = e.path().extension().string();
    const bool py = ext == ".py", cpp = ext == ".cpp" || ext == ".hpp" || ext == ".h";
    if (!e.is_regular_file() || (!py && !cpp)) continue;
    std::ifstream in(e.path(), std::ios::binary);
    walk(py ? Language::Python : Language::Cpp, std::string(std::istreambuf_iterator<char>(in), {}));
    ++files;
  }
  walk(Language::Python, "def f(a:\n    return a\nx = (1,\n");
  walk(Language::Cpp, "int main( { return 0 }\n");
  EXPECT_GT(files, 50);
  EXPECT_GT(seen["ERROR"], 0);
  EXPECT_GT(seen["type_identifier"], 0);  // an alias of identifier in tree-sitter-cpp
  EXPECT_GT(seen["identifier"], 1000);
}

// The Python scanner keeps its indent and delimiter buffers between tokens (harness/grammars/
// python_scanner.c): blocks that open and close at many depths, and f-strings inside f-strings, still
// come out as the grammar says.
TEST(SyntaxTree, IndentsAndNestedStringsSurviveTheReusedScannerState) {
  std::string src;
  for (int d = 0; d < 12; ++d) src += std::string(4 * d, ' ') + "if x" + std::to_string(d) + ":\n";
  src += std::string(48, ' ') + "y = f\"{a} {f'{b!r:>{w}}'} {c}\"\n";
  src += "z = 1\n";
  for (int d = 0; d < 3; ++d) src += std::string(4 * d, ' ') + "while q:\n";
  src += std::string(12, ' ') + "pass\n" + std::string(4, ' ') + "w = '''a\nb'''\n";
  SyntaxTree t = SyntaxTree::parse(Language::Python, src);
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t.hasError());
  std::vector<std::string> top;
  for (TSNode n : namedChildren(t.root())) top.emplace_back(nodeType(n));
  EXPECT_EQ(top, (std::vector<std::string>{"if_statement", "expression_statement", "while_statement"}));
  int interpolations = 0;
  std::vector<TSNode> stack{t.root()};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    interpolations += nodeType(n) == "interpolation";
    for (TSNode c : namedChildren(n)) stack.push_back(c);
  }
  EXPECT_EQ(interpolations, 4);  // {a}, the inner f-string's {b!r:>{w}} and its {w}, {c}
}

TEST(SyntaxTree, DeeplyNestedInputDoesNotCrash) {
  std::string src = "x = " + std::string(20000, '(') + "1" + std::string(20000, ')') + "\n";
  SyntaxTree t = SyntaxTree::parse(Language::Python, src);
  EXPECT_TRUE(t.ok());
  (void)t.firstError();
}

}  // namespace
}  // namespace portcheck
