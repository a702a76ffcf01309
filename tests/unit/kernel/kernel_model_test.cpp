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

}  // namespace
}  // namespace portcheck::kernel
