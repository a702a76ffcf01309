// The DSL model on the real programs of the compiler fixture set (tests/fixtures/pypto-real), against
// the kernel names the compiler gave them (tests/fixtures/dsl/<case>/kernels.txt).
#include <fstream>
#include <set>
#include <sstream>

#include "dsl_test_support.h"

namespace portcheck::test {
namespace {

using dsl::FunctionKind;
using dsl::MemSpace;
using dsl::ValueKind;

std::set<std::string> kernelNames(const dsl::FileModel& m) {
  std::set<std::string> out;
  for (const dsl::Function& f : m.functions)
    for (const dsl::IncoreRegion& r : f.regions)
      if (!r.kernel_name.empty()) out.insert(r.kernel_name);
  return out;
}

TEST(DslModelFixtures, KernelNamesMatchTheCompilersForEveryFixtureProgram) {
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(fixturesDir()) / "dsl")) {
    if (!entry.is_directory()) continue;
    std::string name = entry.path().filename().string();
    std::ifstream in(entry.path() / "kernels.txt");
    std::set<std::string> expected;
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) expected.insert(line);
    dsl::FileModel m = fixtureModel(name);
    EXPECT_FALSE(m.syntax_error) << name;
    if (expected.empty()) continue;  // the compile stopped before outlining
    EXPECT_EQ(kernelNames(m), expected) << name;
    ++compared;
  }
  EXPECT_GE(compared, 15);
}

TEST(DslModelFixtures, UnscopedTileCodeHasNoIncoreRegion) {
  dsl::FileModel m = fixtureModel("18-misplaced-tile-op");
  const dsl::Function& f = fn(m, "no_scope");
  EXPECT_EQ(f.kind, FunctionKind::JitEntry);
  EXPECT_TRUE(f.regions.empty());
  for (const dsl::Stmt& s : f.stmts) EXPECT_FALSE(s.incore);
  EXPECT_EQ(val(f, "t").type.kind, ValueKind::Tile);  // the tile exists, outside any incore scope
}

TEST(DslModelFixtures, JitProgramHasAliasKindsParamsAndOneScope) {
  dsl::FileModel m = fixtureModel("01-vec-elementwise");
  ASSERT_EQ(m.pl_aliases.size(), 1u);
  EXPECT_EQ(m.pl_aliases[0].alias, "pl");
  EXPECT_EQ(m.pl_aliases[0].loc.line, 4);
  EXPECT_TRUE(m.usesJit());
  EXPECT_FALSE(m.usesProgram());
  const dsl::Function& f = fn(m, "fused_add_mul");
  EXPECT_EQ(f.kind, FunctionKind::JitEntry);
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_EQ(f.params[0].type.kind, ValueKind::Tensor);
  EXPECT_EQ(f.params[0].type.shape.str(), "[64, 128]");
  EXPECT_EQ(f.params[0].type.dtype, dsl::DType::FP32);
  EXPECT_EQ(f.params[0].direction, dsl::Direction::In);
  EXPECT_EQ(f.params[2].direction, dsl::Direction::Out);
  EXPECT_EQ(f.params[2].loc.line, 12);
  EXPECT_EQ(f.params[2].loc.col, 5);
  ASSERT_EQ(f.scopes.size(), 1u);
  EXPECT_EQ(f.scopes[0].kind, dsl::ScopeKind::At);
  EXPECT_EQ(f.scopes[0].level, "CORE_GROUP");
  EXPECT_FALSE(f.scopes[0].has_name_hint);
  ASSERT_EQ(f.regions.size(), 1u);
  EXPECT_EQ(f.regions[0].kernel_name, "fused_add_mul_incore_0");
  EXPECT_EQ(plCalls(f), (std::vector<std::string>{"at", "load", "load", "add", "mul", "store"}));
  // the scope statement opens the region; its body is incore, the return is not
  const dsl::Stmt& with = f.stmts[static_cast<std::size_t>(f.regions[0].stmt)];
  EXPECT_EQ(with.kind, dsl::StmtKind::Scope);
  EXPECT_FALSE(with.incore);
  EXPECT_TRUE(f.stmts[static_cast<std::size_t>(f.regions[0].first)].incore);
  EXPECT_EQ(f.stmts.back().kind, dsl::StmtKind::Return);
  EXPECT_FALSE(f.stmts.back().incore);
}

TEST(DslModelFixtures, TilesCarryShapeDtypeSpaceBytesAndLiveRanges) {
  dsl::FileModel m = fixtureModel("01-vec-elementwise");
  const dsl::Function& f = fn(m, "fused_add_mul");
  for (const char* name : {"tx", "tz", "total", "prod"}) {
    const dsl::Value& v = val(f, name);
    EXPECT_EQ(v.type.kind, ValueKind::Tile) << name;
    EXPECT_EQ(v.type.shape.str(), "[64, 128]") << name;
    EXPECT_EQ(v.type.dtype, dsl::DType::FP32) << name;
    EXPECT_EQ(v.type.space, MemSpace::Vec) << name;
    EXPECT_EQ(v.type.bytes(), 32768) << name;
    EXPECT_TRUE(v.on_chip) << name;
  }
  // tx is used by the add and the mul: live from its load to the mul
  auto [first, last] = f.liveRange(valueIndex(f, "tx"));
  EXPECT_EQ(f.stmts[static_cast<std::size_t>(first)].loc.line, 15);
  EXPECT_EQ(f.stmts[static_cast<std::size_t>(last)].loc.line, 18);
  auto [tz_first, tz_last] = f.liveRange(valueIndex(f, "tz"));
  EXPECT_EQ(tz_last - tz_first, 1);
}

TEST(DslModelFixtures, CubePathTilesLandInMatLeftRightAcc) {
  dsl::FileModel m = fixtureModel("03-matmul-program");
  ASSERT_EQ(m.programs.size(), 1u);
  EXPECT_EQ(m.programs[0].name, "TinyGemm");
  EXPECT_TRUE(m.usesProgram());
  const dsl::Function& k = fn(m, "gemm_tile");
  EXPECT_EQ(k.kind, FunctionKind::InCore);
  EXPECT_TRUE(k.in_program);
  EXPECT_EQ(k.class_name, "TinyGemm");
  EXPECT_TRUE(k.params[0].is_self);
  ASSERT_EQ(k.regions.size(), 1u);
  EXPECT_EQ(k.regions[0].kind, dsl::RegionKind::IncoreFunction);
  EXPECT_EQ(k.regions[0].kernel_name, "gemm_tile");
  for (const dsl::Stmt& s : k.stmts) EXPECT_TRUE(s.incore);
  EXPECT_EQ(val(k, "a_l1").type.space, MemSpace::Mat);
  EXPECT_EQ(val(k, "a_l1").type.bytes(), 64 * 128 * 2);
  EXPECT_EQ(val(k, "a_l0a").type.space, MemSpace::Left);
  EXPECT_EQ(val(k, "b_l0b").type.space, MemSpace::Right);
  EXPECT_EQ(val(k, "b_l0b").type.shape.str(), "[128, 128]");
  const dsl::Value& acc = val(k, "c_l0c");
  EXPECT_EQ(acc.type.space, MemSpace::Acc);
  EXPECT_EQ(acc.type.dtype, dsl::DType::FP32);  // FP16 x FP16 accumulates in FP32
  EXPECT_EQ(acc.type.shape.str(), "[64, 128]");
  EXPECT_EQ(val(k, "out").type.kind, ValueKind::Tensor);
  EXPECT_FALSE(val(k, "out").on_chip);

  const dsl::Function& orch = fn(m, "gemm");
  EXPECT_EQ(orch.kind, FunctionKind::Orchestration);
  ASSERT_EQ(orch.calls.size(), 1u);
  const dsl::Expr& call = orch.exprs[static_cast<std::size_t>(orch.calls[0])];
  EXPECT_EQ(call.name, "self.gemm_tile");
  EXPECT_EQ(call.callee_file, 0);
  EXPECT_EQ(call.callee_function, m.functionIndex("gemm_tile", "TinyGemm"));
  EXPECT_EQ(val(orch, "c").type.shape.str(), "[64, 128]");  // c = self.gemm_tile(a, b, c)
}

TEST(DslModelFixtures, MixedSplitScopeRecordsOptimizationsAndTensorLevelCompute) {
  dsl::FileModel m = fixtureModel("25-pipe-ring-oom-program");
  const dsl::Function& f = fn(m, "deep_ring");
  ASSERT_EQ(f.scopes.size(), 1u);
  const dsl::Scope& sc = f.scopes[0];
  EXPECT_EQ(sc.optimizations, (std::vector<std::string>{"split", "cross_core_slot"}));
  EXPECT_EQ(sc.split_mode, "UP_DOWN");
  EXPECT_EQ(sc.cross_core_slots.asInt(), 4);
  // pl.matmul on tensors inside pl.at: tensor-level, held on chip in Acc by the compiler
  const dsl::Value& acc = val(f, "acc");
  EXPECT_EQ(acc.type.kind, ValueKind::Tensor);
  EXPECT_TRUE(acc.on_chip);
  EXPECT_EQ(acc.type.space, MemSpace::Acc);
  EXPECT_EQ(acc.type.shape.str(), "[128, 128]");
  EXPECT_EQ(acc.type.dtype, dsl::DType::FP32);
  // out[:] = ...: a subscript write of the Out tensor
  bool wrote = false;
  for (const dsl::SubscriptAccess& a : f.subscripts)
    if (a.write && f.values[static_cast<std::size_t>(a.base_value)].name == "out") wrote = true;
  EXPECT_TRUE(wrote);
}

TEST(DslModelFixtures, LoopsKeepIteratorBoundsAndPlacement) {
  dsl::FileModel m = fixtureModel("05-rows-loop");
  const dsl::Function& f = fn(m, "block_axpy");
  ASSERT_EQ(f.loops.size(), 2u);
  const dsl::Loop& outer = f.loops[0];
  EXPECT_EQ(outer.iter, dsl::LoopIter::PlParallel);
  EXPECT_EQ(outer.trip_count, 4);
  EXPECT_EQ(outer.targets, std::vector<std::string>{"rb"});
  EXPECT_FALSE(f.stmts[static_cast<std::size_t>(outer.stmt)].incore);
  const dsl::Loop& inner = f.loops[1];
  EXPECT_EQ(inner.iter, dsl::LoopIter::PlRange);
  EXPECT_EQ(inner.stop.asInt(), 2);
  EXPECT_TRUE(f.stmts[static_cast<std::size_t>(inner.stmt)].incore);
  EXPECT_EQ(f.stmts[static_cast<std::size_t>(inner.stmt)].enclosing_loop, outer.stmt);
  EXPECT_TRUE(f.contains(outer.stmt, inner.stmt));
  // x is a parameter read inside both loops: live over the whole outer loop
  auto [first, last] = f.liveRange(valueIndex(f, "x"));
  EXPECT_EQ(first, 0);
  EXPECT_EQ(last, f.stmts[static_cast<std::size_t>(outer.stmt)].subtree_end - 1);
}

TEST(DslModelFixtures, RejectedConstructsAreKeptAsUnsupported) {
  dsl::FileModel lc = fixtureModel("15-parse-list-comprehension");
  const dsl::Function& f = fn(lc, "comprehension_kernel");
  ASSERT_EQ(f.unsupported_exprs.size(), 1u);
  const dsl::Expr& e = f.exprs[static_cast<std::size_t>(f.unsupported_exprs[0])];
  EXPECT_EQ(e.name, "ListComp");
  EXPECT_EQ(e.loc.line, 15);
  EXPECT_EQ(e.loc.col, 17);

  dsl::FileModel pr = fixtureModel("16-parse-python-range");
  const dsl::Function& g = fn(pr, "python_loop");
  ASSERT_EQ(g.loops.size(), 1u);
  EXPECT_EQ(g.loops[0].iter, dsl::LoopIter::PythonRange);
  EXPECT_EQ(g.stmts[static_cast<std::size_t>(g.loops[0].stmt)].loc.line, 15);
}

TEST(DslModelFixtures, ProducerConsumerKernelsResolveAndChainThroughTensors) {
  dsl::FileModel m = fixtureModel("02-producer-consumer");
  EXPECT_EQ(fn(m, "scale_by_three").kind, FunctionKind::JitIncore);
  const dsl::Function& entry = fn(m, "scale_bias_relu");
  std::vector<std::string> callees;
  for (int c : entry.calls) {
    const dsl::Expr& e = entry.exprs[static_cast<std::size_t>(c)];
    if (e.callee_function >= 0) callees.push_back(m.functions[static_cast<std::size_t>(e.callee_function)].name);
  }
  EXPECT_EQ(callees, (std::vector<std::string>{"scale_by_three", "add_bias", "clamp_negative"}));
  const dsl::Value& scaled = val(entry, "scaled");
  EXPECT_EQ(scaled.type.kind, ValueKind::Tensor);
  EXPECT_EQ(scaled.type.shape.str(), "[128, 128]");
  EXPECT_FALSE(scaled.on_chip);
}

}  // namespace
}  // namespace portcheck::test
