// The kernel model: CCE dialect text parses, guards decide which builds see a call, tile types resolve
// through aliases and constexpr shapes.
#include <gtest/gtest.h>

#include "kernel/kernel_model.h"
#include "kernel/kernel_source.h"
#include "parse/syntax_tree.h"

namespace portcheck::kernel {
namespace {

struct Parsed {
  SourceFile file;
  std::string parseable;
  SyntaxTree tree;
  KernelModel model;
};

std::unique_ptr<Parsed> parse(const std::string& text) {
  auto p = std::make_unique<Parsed>();
  p->file.path = "k.cpp";
  p->file.text = text;
  p->parseable = parseableText(text);
  p->tree = SyntaxTree::parse(Language::Cpp, p->parseable);
  p->model = buildModel(p->file, p->tree);
  return p;
}

const Call& call(const KernelModel& m, std::string_view name) {
  for (const Call& c : m.calls)
    if (c.name == name) return c;
  throw std::runtime_error("no call " + std::string(name));
}

TEST(KernelSource, CceKeywordsAndLaunchChevronsAreBlankedKeepingOffsets) {
  std::string text = "__global__ AICORE void k(__gm__ float* x) { k<<<8, nullptr, s>>>(x); }\n";
  std::string p = parseableText(text);
  EXPECT_EQ(p.size(), text.size());
  EXPECT_EQ(p.find("__gm__"), std::string::npos);
  EXPECT_EQ(p.find("<<<"), std::string::npos);
  EXPECT_EQ(p.find("void k("), text.find("void k("));
  EXPECT_FALSE(SyntaxTree::parse(Language::Cpp, p).hasError());
}

TEST(KernelSource, DirectiveLinesKeepTheirMacroNames) {
  std::string p = parseableText("#ifndef PTO_INLINE\n#define PTO_INLINE inline\n#endif\n");
  EXPECT_NE(p.find("#ifndef PTO_INLINE"), std::string::npos);
  EXPECT_FALSE(SyntaxTree::parse(Language::Cpp, p).hasError());
}

TEST(KernelModel, GuardsDecideAutoModeAndCoreReach) {
  auto p = parse(
      "void k() {\n"
      "#ifndef __PTO_AUTO__\n  set_flag(A);\n#endif\n"
      "#if !defined(__PTO_AUTO__) && defined(X)\n  wait_flag(A);\n#endif\n"
      "#ifdef __PTO_AUTO__\n  TADD(a, b, c);\n#else\n  pipe_barrier(A);\n#endif\n"
      "#if defined(__DAV_C220_CUBE__)\n  TMATMUL(c, a, b);\n#elif defined(__DAV_VEC__)\n  TEXP(v, v);\n#else\n  TNEG(v, v);\n#endif\n"
      "#if UNKNOWN_MACRO\n  TRELU(v, v);\n#endif\n"
      "}\n");
  const KernelModel& m = p->model;
  EXPECT_EQ(call(m, "set_flag").reach.in_auto, Tri::False);
  EXPECT_EQ(call(m, "wait_flag").reach.in_auto, Tri::False);
  EXPECT_EQ(call(m, "TADD").reach.in_auto, Tri::True);
  EXPECT_EQ(call(m, "pipe_barrier").reach.in_auto, Tri::False);
  EXPECT_EQ(call(m, "TMATMUL").reach.on_vec, Tri::False);
  EXPECT_EQ(call(m, "TMATMUL").reach.on_cube, Tri::True);
  EXPECT_EQ(call(m, "TEXP").reach.on_cube, Tri::False);
  EXPECT_EQ(call(m, "TEXP").reach.on_vec, Tri::True);
  EXPECT_EQ(call(m, "TNEG").reach.on_vec, Tri::False);
  EXPECT_EQ(call(m, "TNEG").reach.on_cube, Tri::False);
  EXPECT_EQ(call(m, "TRELU").reach.in_auto, Tri::Unknown);
  EXPECT_TRUE(m.mentions_pto_auto);
  EXPECT_TRUE(m.mentions_vec_macro);
  EXPECT_TRUE(m.mentions_cube_macro);
}

TEST(KernelModel, IfConstexprOnACoreFlagLimitsReach) {
  auto p = parse("void k() {\n  if constexpr (DAV_CUBE) {\n    TMATMUL(c, a, b);\n  } else {\n    TEXP(v, v);\n  }\n}\n");
  EXPECT_EQ(call(p->model, "TMATMUL").reach.on_vec, Tri::False);
  EXPECT_EQ(call(p->model, "TEXP").reach.on_cube, Tri::False);
}

TEST(KernelModel, TileTypesResolveThroughAliasesAndConstants) {
  auto p = parse(
      "constexpr int kRows = 4 * 4;\n"
      "using Acc = TileAcc<float, 16, 16>;\n"
      "using V = pto::Tile<TileType::Vec, half, kRows, 128, BLayout::RowMajor, -1, -1>;\n"
      "using GT = GlobalTensor<half, Shape<1, 1, 1, 16, 128>, Stride<1, 1, 1, 128, 1>>;\n"
      "template <typename T> void k(__gm__ half* x, V& v, T& t) {\n"
      "  Acc c;\n  GT g(x);\n  TLOAD(v, g);\n}\n");
  const KernelModel& m = p->model;
  const Call& load = call(m, "TLOAD");
  ASSERT_EQ(load.args.size(), 2u);
  const Symbol* v = m.symbolOf(load.args[0]);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->kind, SymbolKind::Tile);
  EXPECT_EQ(v->tile.loc, Loc::Vec);
  EXPECT_EQ(v->tile.dtype, "half");
  EXPECT_EQ(v->tile.rows, 16);
  EXPECT_EQ(v->tile.cols, 128);
  EXPECT_EQ(v->tile.valid_rows, -1);
  EXPECT_EQ(v->tile.bytes(), 16 * 128 * 2);
  EXPECT_EQ(m.symbolOf(load.args[1])->kind, SymbolKind::GlobalTensor);
  bool acc = false, gm = false;
  for (const Symbol& s : m.symbols) {
    if (s.name == "c") acc = s.kind == SymbolKind::Tile && s.tile.loc == Loc::Acc && s.tile.rows == 16;
    if (s.name == "x") gm = s.kind == SymbolKind::GmPointer && s.is_param;
  }
  EXPECT_TRUE(acc);
  EXPECT_TRUE(gm);
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].name, "k");
}

TEST(KernelModel, TileFunctionsAndEntriesAreRecognisedThroughBlankedQualifiers) {
  auto p = parse(
      "template <typename T>\n__tf__ AICORE void f(typename T::TileDType __in__ src) {}\n"
      "extern \"C\" __global__ AICORE void entry(__gm__ float* x) {}\n");
  ASSERT_EQ(p->model.functions.size(), 2u);
  EXPECT_TRUE(p->model.functions[0].tile_function);
  EXPECT_FALSE(p->model.functions[0].entry);
  EXPECT_TRUE(p->model.functions[1].entry);
  EXPECT_FALSE(p->model.functions[1].tile_function);
}

TEST(KernelModel, TileArraysCountTheirElementsAndIndicesKnowWhetherTheyAreConstant) {
  auto p = parse(
      "using V = Tile<TileType::Vec, float, 16, 64>;\n"
      "constexpr int kN = 2;\n"
      "template <int Slot>\n"
      "AICORE void k(int n) {\n"
      "  V grid[kN][3];\n"
      "  V ring[n];\n"
      "  for (int i = 0; i < n; ++i) TADD(grid[i % kN][0], grid[Slot][kN - 1], grid[0][0]);\n"
      "}\n");
  const KernelModel& m = p->model;
  const Symbol* grid = nullptr;
  const Symbol* ring = nullptr;
  for (const Symbol& s : m.symbols) {
    if (s.name == "grid") grid = &s;
    if (s.name == "ring") ring = &s;
  }
  ASSERT_TRUE(grid && ring);
  EXPECT_TRUE(grid->is_array);
  EXPECT_EQ(grid->array_elements, 6);
  EXPECT_EQ(grid->tile.loc, Loc::Vec);
  EXPECT_TRUE(ring->is_array);
  EXPECT_FALSE(ring->array_elements.has_value());
  const Call& add = call(m, "TADD");
  ASSERT_EQ(add.args.size(), 3u);
  EXPECT_FALSE(add.args[0].constant_index);
  EXPECT_TRUE(add.args[1].constant_index);  // a template parameter and a constexpr expression
  EXPECT_TRUE(add.args[2].constant_index);
  EXPECT_EQ(add.loop, 0);
}

TEST(KernelModel, LoopsRecordTheirCounterAndWhatTheBodyWritesAndIfsTheirComparisons) {
  auto p = parse(
      "AICORE void k(V& a, int n, bool flag) {\n"
      "  int odd = 0;\n"
      "  for (int i = 0; i < n; ++i) {\n"
      "    odd += 1;\n"
      "    int local = i;\n"
      "    if (i == n - 1 && flag) TADD(a, a, a);\n"
      "  }\n"
      "}\n");
  const KernelModel& m = p->model;
  ASSERT_EQ(m.loops.size(), 1u);
  const Loop& l = m.loops[0];
  EXPECT_EQ(l.induction, std::vector<std::string>{"i"});
  EXPECT_TRUE(l.writes("odd"));
  EXPECT_TRUE(l.writes("local"));
  EXPECT_FALSE(l.writes("flag"));
  ASSERT_EQ(m.ifs.size(), 1u);
  const IfStatement& s = m.ifs[0];
  EXPECT_EQ(s.loop, 0);
  EXPECT_TRUE(s.compound);
  EXPECT_FALSE(s.is_constexpr);
  ASSERT_EQ(s.comparisons.size(), 1u);
  EXPECT_EQ(s.comparisons[0].left, "i");
  EXPECT_FALSE(s.comparisons[0].right_constant);
  EXPECT_EQ(s.condition_names, (std::vector<std::string>{"i", "n", "flag"}));
}

TEST(KernelModel, MultiBufferedLoopBodiesAndConvTileDynamicShapesAreMarked) {
  auto p = parse(
      "using C = ConvTile<TileType::Mat, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 2, DYNAMIC, 16, 16>>;\n"
      "AICORE void k(V& a, int h) {\n"
      "  C conv(h);\n"
      "  MultiBuffered<2> db;\n"
      "  db.loop<Range<4>>([&](auto it) { TADD(a, a, a); });\n"
      "  TSUB(a, a, a);\n"
      "}\n");
  const KernelModel& m = p->model;
  EXPECT_TRUE(call(m, "TADD").multibuffered);
  EXPECT_FALSE(call(m, "TSUB").multibuffered);
  EXPECT_EQ(call(m, "loop").template_args, "Range<4>");
  const Symbol* conv = nullptr;
  for (const Symbol& s : m.symbols)
    if (s.name == "conv") conv = &s;
  ASSERT_TRUE(conv);
  EXPECT_TRUE(conv->tile.conv);
  EXPECT_TRUE(conv->tile.conv_dynamic_shape);
  EXPECT_FALSE(conv->tile.bytes().has_value());
}

TEST(KernelSource, GrammarErrorsTheMacroExpanderCouldExplainAreRecognised) {
  auto explains = [](const std::string& text) {
    std::size_t at = text.find("@");
    std::string t = text;
    t.erase(at, 1);
    return preprocessorMayExplain(t, at, at + 1);
  };
  EXPECT_TRUE(explains("int main() {\n  LAUNCH_KERNEL(k, , (1, nullptr));@\n}\n"));
  EXPECT_TRUE(explains("class CONCAT(A, Test)@ : public testing::Test {};\n"));
  EXPECT_TRUE(explains("void f() {\n#if X\n  if (a) {\n#endif\n@}\n"));
  EXPECT_TRUE(explains("void f() {\n  __VEC_SCOPE__\n  {@ int x; }\n}\n"));
  EXPECT_TRUE(explains("auto v = typename T::DType(0)@;\n"));
  EXPECT_TRUE(explains("if constexpr (a) {} else if constexpr (b) {@}\n"));
  // A real error: only PTO instructions and ordinary code nearby.
  EXPECT_FALSE(explains("void f(__gm__ float* x {@\n  TADD(a, b, c);\n}\n"));
  EXPECT_FALSE(explains("void f() {\n  int x = 1 +@;\n}\n"));
}

}  // namespace
}  // namespace portcheck::kernel
