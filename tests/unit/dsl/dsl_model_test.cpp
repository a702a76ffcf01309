// The DSL model on small programs: constants, aliases, function kinds, scopes, loops, types.
#include "dsl/const_eval.h"
#include "dsl_test_support.h"

namespace portcheck::test {
namespace {

using dsl::FunctionKind;
using dsl::MemSpace;
using dsl::ValueKind;

const dsl::Constant& constant(const dsl::FileModel& m, std::string_view name) {
  const dsl::Constant* c = m.constant(name);
  if (!c) {
    ADD_FAILURE() << "no constant " << name;
    static const dsl::Constant none;
    return none;
  }
  return *c;
}

TEST(DslModelConstants, ArithmeticIsEvaluatedWithPythonSemantics) {
  dsl::FileModel m = fileModelOf(R"(
HIDDEN = 4096
ROW_TILE = 32
QUARTER = HIDDEN // 4
NEG = -7 // 2
MOD = -7 % 3
POW = 2 ** 10
RATIO = 1 / 8
PAREN = (HIDDEN - 96) * 2
SHAPE = (ROW_TILE, HIDDEN // 4)
FIRST = SHAPE[1]
SCALE = 1.0 / (128 ** 0.5)
HEX = 0x40 + 1_000
UNKNOWN = some_function(3)
PARTIAL = HIDDEN * UNKNOWN
BIG = 2 ** 70
DIV0 = 1 // 0
)");
  EXPECT_EQ(constant(m, "QUARTER").value.asInt(), 1024);
  EXPECT_EQ(constant(m, "NEG").value.asInt(), -4);
  EXPECT_EQ(constant(m, "MOD").value.asInt(), 2);
  EXPECT_EQ(constant(m, "POW").value.asInt(), 1024);
  EXPECT_DOUBLE_EQ(constant(m, "RATIO").value.asDouble(), 0.125);
  EXPECT_FALSE(constant(m, "RATIO").value.isInt());
  EXPECT_EQ(constant(m, "PAREN").value.asInt(), 8000);
  EXPECT_TRUE(constant(m, "SHAPE").is_tuple);
  ASSERT_EQ(constant(m, "SHAPE").tuple.size(), 2u);
  EXPECT_EQ(constant(m, "SHAPE").tuple[1].asInt(), 1024);
  EXPECT_EQ(constant(m, "FIRST").value.asInt(), 1024);
  EXPECT_NEAR(constant(m, "SCALE").value.asDouble(), 0.0883883, 1e-6);
  EXPECT_EQ(constant(m, "HEX").value.asInt(), 1064);
  // never guessed: unresolvable, overflowing or undefined values are not constants
  EXPECT_EQ(m.constant("UNKNOWN"), nullptr);
  EXPECT_EQ(m.constant("PARTIAL"), nullptr);
  EXPECT_EQ(m.constant("BIG"), nullptr);
  EXPECT_EQ(m.constant("DIV0"), nullptr);
}

// Comparisons and bools are ints in arithmetic, the way model configs size tiles with them
// (pypto-lib deepseek_v4: `OVERLAP = COMPRESS_RATIO == 4`, `COFF = 1 + int(OVERLAP)`).
TEST(DslModelConstants, ComparisonsAndBoolsAreIntsInArithmetic) {
  dsl::FileModel m = fileModelOf(R"(
RATIO = 4
OVERLAP = RATIO == 4
COFF = 1 + int(OVERLAP)
OUT_DIM = COFF * 128
CHAINED = 1 < RATIO <= 4
BROKEN_CHAIN = 1 < RATIO < 3
NOT_EQUAL = RATIO != 4
FLAG = True
FLAGGED = 2 * FLAG + False
UNKNOWN_CMP = RATIO == some_function(3)
)");
  EXPECT_EQ(constant(m, "OVERLAP").value.asInt(), 1);
  EXPECT_EQ(constant(m, "COFF").value.asInt(), 2);
  EXPECT_EQ(constant(m, "OUT_DIM").value.asInt(), 256);
  EXPECT_EQ(constant(m, "CHAINED").value.asInt(), 1);
  EXPECT_EQ(constant(m, "BROKEN_CHAIN").value.asInt(), 0);
  EXPECT_EQ(constant(m, "NOT_EQUAL").value.asInt(), 0);
  EXPECT_EQ(constant(m, "FLAGGED").value.asInt(), 2);
  EXPECT_EQ(m.constant("UNKNOWN_CMP"), nullptr);
}

TEST(DslModelConstants, ShapesInAnnotationsAndLoadsResolveThroughConstants) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl
ROW_TILE = 16
HIDDEN = 512

@pl.jit
def k(x: pl.Tensor[[ROW_TILE, HIDDEN], pl.BF16], y: pl.Out[pl.Tensor[[ROW_TILE, HIDDEN // 4], pl.BF16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [ROW_TILE, HIDDEN // 4])
        pl.store(t, [0, 0], y)
    return y
)");
  const dsl::Function& f = fn(m, "k");
  EXPECT_EQ(f.params[0].type.shape.str(), "[16, 512]");
  EXPECT_EQ(f.params[1].type.shape.str(), "[16, 128]");
  EXPECT_EQ(val(f, "t").type.shape.str(), "[16, 128]");
  EXPECT_EQ(val(f, "t").type.dtype, dsl::DType::BF16);
  EXPECT_EQ(val(f, "t").type.bytes(), 16 * 128 * 2);
  EXPECT_EQ(val(f, "t").type.innermostBytes(), 256);
}

TEST(DslModelConstants, NumberHelpersFollowPython) {
  EXPECT_EQ(dsl::applyBinary("//", dsl::Number::ofInt(7), dsl::Number::ofInt(-2)).asInt(), -4);
  EXPECT_EQ(dsl::applyBinary("%", dsl::Number::ofInt(7), dsl::Number::ofInt(-2)).asInt(), -1);
  EXPECT_FALSE(dsl::applyBinary("*", dsl::Number::ofInt(INT64_MAX), dsl::Number::ofInt(2)).known());
  EXPECT_FALSE(dsl::applyBinary("/", dsl::Number::ofInt(1), dsl::Number::ofInt(0)).known());
  EXPECT_EQ(dsl::parseNumberLiteral("0b101").asInt(), 5);
  EXPECT_FALSE(dsl::parseNumberLiteral("12j").known());
}

TEST(DslModelAliases, EveryImportFormOfPyptoLanguageIsRecordedWithItsLine) {
  dsl::FileModel a = fileModelOf("import pypto.language as pypl\n\n@pypl.jit\ndef f(x: pypl.Tensor):\n    return x\n");
  ASSERT_EQ(a.pl_aliases.size(), 1u);
  EXPECT_EQ(a.pl_aliases[0].alias, "pypl");
  EXPECT_EQ(a.pl_aliases[0].loc.line, 1);
  EXPECT_EQ(fn(a, "f").kind, FunctionKind::JitEntry);  // resolved through the unusual alias
  dsl::FileModel b = fileModelOf("import os\nfrom pypto import language as L\n");
  ASSERT_EQ(b.pl_aliases.size(), 1u);
  EXPECT_EQ(b.pl_aliases[0].alias, "L");
  EXPECT_EQ(b.pl_aliases[0].loc.line, 2);
  dsl::FileModel c = fileModelOf("import pypto.language\n\n@pypto.language.jit\ndef f(x):\n    return x\n");
  ASSERT_EQ(c.pl_aliases.size(), 1u);
  EXPECT_EQ(c.pl_aliases[0].alias, "pypto.language");
  EXPECT_EQ(fn(c, "f").kind, FunctionKind::JitEntry);
  dsl::FileModel d = fileModelOf("import pypto.language as pl\nimport pypto.language.distributed as pld\n");
  ASSERT_EQ(d.pl_aliases.size(), 2u);
  EXPECT_EQ(d.pl_aliases[1].module, "pypto.language.distributed");
}

TEST(DslModelFunctions, DecoratorsGiveTheFunctionKind) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl

@pl.jit
def entry(x: pl.Tensor): return x

@pl.jit.incore
def kernel(x: pl.Tensor): return x

@pl.jit.inline
def helper(x: pl.Tensor): return x

@pl.jit.host
def host(x): return x

@pl.jit.extern
def ext(x): return x

def plain(a, b):
    return a + b

@pl.program
class P:
    @pl.function
    def opaque(self, x: pl.Tensor[[8], pl.FP32]): return x
    @pl.function(type=pl.FunctionType.InCore)
    def incore(self, x: pl.Tensor[[8], pl.FP32]): return x
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8], pl.FP32]): return x
    @pl.function(type=pl.FunctionType.Inline)
    def inl(self, x: pl.Tensor[[8], pl.FP32]): return x
    @pl.function(type=pl.FunctionType.Opaque)
    def opq(self, x: pl.Tensor[[8], pl.FP32]): return x

def build_program(n):
    @pl.program
    class Built:
        @pl.function(type=pl.FunctionType.InCore)
        def built_kernel(self, x: pl.Tensor[[8], pl.FP32]): return x
    return Built
)");
  EXPECT_EQ(fn(m, "entry").kind, FunctionKind::JitEntry);
  EXPECT_EQ(fn(m, "kernel").kind, FunctionKind::JitIncore);
  EXPECT_TRUE(fn(m, "kernel").isIncoreFunction());
  EXPECT_EQ(fn(m, "helper").kind, FunctionKind::JitInline);
  EXPECT_TRUE(fn(m, "helper").isInline());
  EXPECT_EQ(fn(m, "host").kind, FunctionKind::JitHost);
  EXPECT_EQ(fn(m, "ext").kind, FunctionKind::JitExtern);
  EXPECT_EQ(fn(m, "plain").kind, FunctionKind::Helper);
  EXPECT_EQ(fn(m, "opaque").kind, FunctionKind::Opaque);
  EXPECT_EQ(fn(m, "incore").kind, FunctionKind::InCore);
  EXPECT_EQ(fn(m, "orch").kind, FunctionKind::Orchestration);
  EXPECT_EQ(fn(m, "inl").kind, FunctionKind::Inline);
  EXPECT_EQ(fn(m, "opq").kind, FunctionKind::Opaque);
  EXPECT_EQ(fn(m, "built_kernel").kind, FunctionKind::InCore);  // a program built inside a helper
  EXPECT_EQ(fn(m, "built_kernel").class_name, "Built");
  EXPECT_EQ(fn(m, "opaque").decorators[0].pl_name, "function");
  EXPECT_EQ(fn(m, "entry").loc.line, 4);
  ASSERT_EQ(m.programs.size(), 2u);
  EXPECT_EQ(m.programs[0].functions.size(), 5u);
  EXPECT_TRUE(m.usesJit());
  EXPECT_TRUE(m.usesProgram());
}

TEST(DslModelFunctions, ParameterAnnotationsGiveKindShapeDtypeAndDirection) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl
B = pl.dynamic("B")

@pl.function(type=pl.FunctionType.InCore)
def k(a: pl.Tensor[[B, 128], pl.FP16],
      t: pl.Tile[[16, 16], pl.FP32],
      s: pl.InOut[pl.Scalar[pl.INT32]],
      o: pl.InOut[pl.Tensor[[4, 4], pl.INT8]],
      bare: pl.Tensor,
      missing):
    return o
)");
  const dsl::Function& f = fn(m, "k");
  ASSERT_EQ(f.params.size(), 6u);
  EXPECT_EQ(f.params[0].type.shape.str(), "[?, 128]");
  EXPECT_TRUE(f.params[0].dynamic_shape);
  EXPECT_EQ(f.params[0].type.dtype, dsl::DType::FP16);
  EXPECT_EQ(f.params[1].type.kind, ValueKind::Tile);
  EXPECT_EQ(f.params[2].type.kind, ValueKind::Scalar);
  EXPECT_EQ(f.params[2].type.dtype, dsl::DType::Int32);
  EXPECT_EQ(f.params[2].direction, dsl::Direction::InOut);
  EXPECT_EQ(f.params[3].direction, dsl::Direction::InOut);
  EXPECT_EQ(f.params[3].type.bytes(), 16);
  EXPECT_EQ(f.params[4].type.kind, ValueKind::Tensor);
  EXPECT_FALSE(f.params[4].type.shape.rank_known);
  EXPECT_FALSE(f.params[5].has_annotation);
  EXPECT_EQ(f.params[5].loc.line, 10);
  EXPECT_EQ(f.params[2].annotation_loc.line, 7);
  EXPECT_EQ(f.params[2].annotation_loc.col, 10);
}

TEST(DslModelScopes, KernelNamesFollowTheOutliner) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl

@pl.jit
def model(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        a = pl.load(x, [0, 0], [64, 64])
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="norm"):
        b = pl.load(x, [0, 0], [64, 64])
    with pl.at(level=pl.Level.CORE_GROUP):
        c = pl.load(x, [0, 0], [64, 64])
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="norm"):
        d = pl.load(x, [0, 0], [64, 64])
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="x"):
        e = pl.load(x, [0, 0], [64, 64])
    with pl.manual_scope():
        pass
    return y

@pl.jit
def other(x: pl.Tensor[[64, 64], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="norm"):
        t = pl.load(x, [0, 0], [64, 64])
    return x
)");
  const dsl::Function& f = fn(m, "model");
  std::vector<std::string> names;
  for (const dsl::IncoreRegion& r : f.regions) names.push_back(r.kernel_name);
  // the counter counts named scopes too; a repeated hint gets _0; a hint equal to a
  // parameter name of the function is suffixed as well
  EXPECT_EQ(names, (std::vector<std::string>{"model_incore_0", "norm", "model_incore_2", "norm_0", "x_0"}));
  ASSERT_EQ(f.scopes.size(), 6u);
  EXPECT_EQ(f.scopes[5].kind, dsl::ScopeKind::Other);  // pl.manual_scope is not incore
  EXPECT_EQ(f.regions.size(), 5u);
  // across functions a taken hint is prefixed with the function name
  EXPECT_EQ(fn(m, "other").regions[0].kernel_name, "other_norm");
}

TEST(DslModelScopes, SpmdBodiesAreIncore) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64, 64], pl.FP32]):
    for i in pl.spmd(8):
        t = pl.load(x, [0, 0], [8, 64])
    with pl.spmd(core_num=4, name_hint="blk"):
        u = pl.load(x, [0, 0], [8, 64])
    v = pl.load(x, [0, 0], [8, 64])
    return x
)");
  const dsl::Function& f = fn(m, "f");
  ASSERT_EQ(f.regions.size(), 2u);
  EXPECT_EQ(f.regions[0].kind, dsl::RegionKind::SpmdBody);
  EXPECT_EQ(f.loops[0].iter, dsl::LoopIter::PlSpmd);
  EXPECT_EQ(f.loops[0].trip_count, 8);
  EXPECT_EQ(f.regions[1].kernel_name, "blk");
  EXPECT_TRUE(f.stmts[static_cast<std::size_t>(val(f, "t").def_stmt)].incore);
  EXPECT_TRUE(f.stmts[static_cast<std::size_t>(val(f, "u").def_stmt)].incore);
  EXPECT_FALSE(f.stmts[static_cast<std::size_t>(val(f, "v").def_stmt)].incore);
}

// pypto's parser splits an spmd hint into the Spmd wrapper `<x>_spmd` and the kernel `<x>`, in both
// forms: `name_hint="q_proj"` and `name_hint="q_proj_spmd"` both name the kernel `q_proj`.
// A hint equal to a local variable does not collide: ConvertToSSA renames every variable (x__ssa_v0,
// x__iter_v1, ...) before OutlineIncoreScopes, only parameters keep their names (the `x` hint of
// KernelNamesFollowTheOutliner is suffixed). Checked with the real compiler (e2d0f78): this
// program's kernels are `acc` and `once`; upstream's qwen3_32b decode names its `q_proj` kernel so
// beside a `q_proj` tensor.
TEST(DslModelScopes, AHintDoesNotCollideWithALocalVariable) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    once = pl.create_tensor([64, 64], dtype=pl.FP32)
    acc = pl.create_tensor([64, 64], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="acc"):
        t = pl.load(x, [0, 0], [64, 64])
        acc = pl.store(t, [0, 0], acc)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="once"):
        u = pl.load(acc, [0, 0], [64, 64])
        out = pl.store(u, [0, 0], out)
    return out
)");
  const dsl::Function& f = fn(m, "f");
  ASSERT_EQ(f.regions.size(), 2u);
  EXPECT_EQ(f.regions[0].kernel_name, "acc");
  EXPECT_EQ(f.regions[1].kernel_name, "once");
}

TEST(DslModelScopes, AnSpmdHintNamesTheKernelWithoutItsSpmdSuffix) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64, 64], pl.FP32]):
    for i in pl.spmd(8, name_hint="q_proj_spmd"):
        t = pl.load(x, [0, 0], [8, 64])
    with pl.spmd(4, name_hint="down_proj_spmd"):
        u = pl.load(x, [0, 0], [8, 64])
    with pl.spmd(4, name_hint="kv_proj"):
        w = pl.load(x, [0, 0], [8, 64])
    return x
)");
  const dsl::Function& f = fn(m, "f");
  ASSERT_EQ(f.regions.size(), 3u);
  EXPECT_EQ(f.regions[0].kernel_name, "q_proj");
  EXPECT_EQ(f.regions[1].kernel_name, "down_proj");
  EXPECT_EQ(f.regions[2].kernel_name, "kv_proj");
}

// An spmd body without a hint is an InCore scope like an unnamed pl.at: `<function>_incore_<k>`, k
// counting every InCore scope of the function in order, named ones included (pypto's
// ScopeOutliner::OutlineScope). Checked with the real compiler: `for rb in pl.spmd(32)` in entry `rope`
// compiles to kernel `rope_incore_0`.
TEST(DslModelScopes, AnSpmdBodyWithoutAHintIsNamedLikeAnUnnamedScope) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl

@pl.jit
def rope(x: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    for i in pl.spmd(8):
        t = pl.load(x, [i * 8, 0], [8, 64])
        out = pl.store(t, [i * 8, 0], out)
    for j in pl.spmd(8, name_hint="named"):
        u = pl.load(x, [j * 8, 0], [8, 64])
        out = pl.store(u, [j * 8, 0], out)
    with pl.at(level=pl.Level.CORE_GROUP):
        w = pl.load(x, [0, 0], [8, 64])
        out = pl.store(w, [0, 0], out)
    return out
)");
  const dsl::Function& f = fn(m, "rope");
  ASSERT_EQ(f.regions.size(), 3u);
  EXPECT_EQ(f.regions[0].kernel_name, "rope_incore_0");
  EXPECT_EQ(f.regions[1].kernel_name, "named");
  EXPECT_EQ(f.regions[2].kernel_name, "rope_incore_2");
}

TEST(DslModelLoops, PipelineStageInitValuesAndCarriedValues) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl
K = 1024
K_TILE = 128

@pl.jit
def mm(a: pl.Tensor[[64, K], pl.FP16], b: pl.Tensor[[K, 64], pl.FP16], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc0 = pl.create_tile([64, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
        for k0, (acc,) in pl.pipeline(0, K, K_TILE, stage=2, init_values=(acc0,)):
            ta = pl.load(a, [0, k0], [64, K_TILE], target_memory=pl.MemorySpace.Mat)
            tb = pl.load(b, [k0, 0], [K_TILE, 64], target_memory=pl.MemorySpace.Mat)
            if k0 == 0:
                acc = pl.matmul(ta, tb)
            else:
                acc = pl.matmul_acc(acc, ta, tb)
            out = pl.yield_(acc)
        pl.store(out, [0, 0], c)
    i = 0
    while i < 3:
        i = i + 1
    return c
)");
  const dsl::Function& f = fn(m, "mm");
  ASSERT_EQ(f.loops.size(), 2u);
  const dsl::Loop& l = f.loops[0];
  EXPECT_EQ(l.iter, dsl::LoopIter::PlPipeline);
  EXPECT_EQ(l.start.asInt(), 0);
  EXPECT_EQ(l.stop.asInt(), 1024);
  EXPECT_EQ(l.step.asInt(), 128);
  EXPECT_EQ(l.trip_count, 8);
  EXPECT_EQ(l.stage.asInt(), 2);
  EXPECT_EQ(l.targets, std::vector<std::string>{"k0"});
  EXPECT_EQ(l.carried, std::vector<std::string>{"acc"});
  EXPECT_EQ(f.loops[1].iter, dsl::LoopIter::PythonWhile);
  // the carried accumulator: typed from init_values, live for the whole loop
  const dsl::Value& acc0 = val(f, "acc0");
  EXPECT_EQ(acc0.type.space, MemSpace::Acc);
  EXPECT_EQ(acc0.type.bytes(), 64 * 64 * 4);
  int carried = -1;
  for (std::size_t i = 0; i < f.values.size(); ++i)
    if (f.values[i].name == "acc" && f.values[i].def_stmt == l.stmt) carried = static_cast<int>(i);
  ASSERT_GE(carried, 0);
  EXPECT_TRUE(f.values[static_cast<std::size_t>(carried)].loop_carried);
  EXPECT_EQ(f.liveRange(carried).second, f.stmts[static_cast<std::size_t>(l.stmt)].subtree_end - 1);
  // acc0 is only read in the loop header, yet lives until the loop header runs
  EXPECT_EQ(f.liveRange(valueIndex(f, "acc0")).second, l.stmt);
  // the K-loop tiles
  EXPECT_EQ(val(f, "ta").type.space, MemSpace::Mat);
  EXPECT_EQ(val(f, "ta").type.shape.str(), "[64, 128]");
  EXPECT_EQ(val(f, "tb").type.shape.str(), "[128, 64]");
  EXPECT_EQ(val(f, "acc").type.space, MemSpace::Acc);  // matmul_acc result (the else branch)
  EXPECT_EQ(val(f, "out").type.shape.str(), "[64, 64]");  // yield_ keeps its operand
  // if / else structure
  int if_stmt = -1;
  for (std::size_t i = 0; i < f.stmts.size(); ++i)
    if (f.stmts[i].kind == dsl::StmtKind::If) if_stmt = static_cast<int>(i);
  ASSERT_GE(if_stmt, 0);
  const dsl::Stmt& ifs = f.stmts[static_cast<std::size_t>(if_stmt)];
  const dsl::Stmt& last_child = f.stmts[static_cast<std::size_t>(ifs.subtree_end - 1)];
  EXPECT_EQ(f.stmts[static_cast<std::size_t>(last_child.parent)].kind, dsl::StmtKind::Else);
  EXPECT_EQ(ifs.enclosing_loop, l.stmt);
}

TEST(DslModelTypes, OperationResultsFollowThePyptoSignatures) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl

@pl.jit
def ops(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Out[pl.Tensor[[64, 256], pl.BF16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [64, 256])
        tmp = pl.tile.create([64, 256], pl.FP32)
        mx = pl.row_max(t, tmp)
        cs = pl.col_sum(t)
        am = pl.row_argmax(t, tmp)
        sub = pl.row_expand_sub(t, mx)
        e = pl.exp(sub)
        h = pl.cast(e, target_type=pl.BF16)
        z = pl.full([64, 256], dtype=pl.FP32, value=0.0)
        zt = pl.tile.full([8, 256], pl.FP16, 0.0)
        r = pl.reshape(t, [128, 128])
        tr = pl.transpose(t, 0, 1)
        sl = pl.slice(t, [32, 256], [0, 0])
        mv = pl.move(t, target_memory=pl.MemorySpace.Mat)
        nested = pl.add(pl.mul(t, 2.0), t)
        scaled = t * 2
        pl.store(h, [0, 0], y)
    return y
)");
  const dsl::Function& f = fn(m, "ops");
  EXPECT_EQ(val(f, "tmp").type.kind, ValueKind::Tile);
  EXPECT_EQ(val(f, "mx").type.shape.str(), "[64, 1]");
  EXPECT_EQ(val(f, "cs").type.shape.str(), "[1, 256]");
  EXPECT_EQ(val(f, "am").type.dtype, dsl::DType::Int32);
  EXPECT_EQ(val(f, "sub").type.shape.str(), "[64, 256]");
  EXPECT_EQ(val(f, "e").type.dtype, dsl::DType::FP32);
  EXPECT_EQ(val(f, "h").type.dtype, dsl::DType::BF16);
  EXPECT_EQ(val(f, "h").type.bytes(), 64 * 256 * 2);
  EXPECT_EQ(val(f, "z").type.kind, ValueKind::Tensor);  // pl.full is tensor.full ...
  EXPECT_TRUE(val(f, "z").on_chip);                     // ... held on chip inside pl.at
  EXPECT_EQ(val(f, "zt").type.kind, ValueKind::Tile);
  EXPECT_EQ(val(f, "zt").type.dtype, dsl::DType::FP16);
  EXPECT_EQ(val(f, "r").type.shape.str(), "[128, 128]");
  EXPECT_EQ(val(f, "tr").type.shape.str(), "[256, 64]");
  EXPECT_EQ(val(f, "sl").type.shape.str(), "[32, 256]");
  EXPECT_EQ(val(f, "mv").type.space, MemSpace::Mat);
  EXPECT_EQ(val(f, "nested").type.shape.str(), "[64, 256]");
  EXPECT_EQ(val(f, "scaled").type.kind, ValueKind::Tile);
  // the anonymous pl.mul result is a value of its own, defined and used in the same statement
  const dsl::Value& nested = val(f, "nested");
  int anon = -1;
  for (std::size_t i = 0; i < f.values.size(); ++i)
    if (f.values[i].name.empty() && f.values[i].def_stmt == nested.def_stmt) anon = static_cast<int>(i);
  ASSERT_GE(anon, 0);
  EXPECT_EQ(f.values[static_cast<std::size_t>(anon)].type.kind, ValueKind::Tile);
  EXPECT_EQ(f.liveRange(anon), std::make_pair(nested.def_stmt, nested.def_stmt));
  // call arguments: positional and keyword, with their text
  const dsl::Expr& cast = f.exprs[static_cast<std::size_t>(val(f, "h").def_expr)];
  EXPECT_EQ(cast.pl_name, "cast");
  ASSERT_EQ(cast.kwargs.size(), 1u);
  EXPECT_EQ(cast.kwargs[0].first, "target_type");
  EXPECT_EQ(m.text(f.exprs[static_cast<std::size_t>(cast.kwargs[0].second)]), "pl.BF16");
  EXPECT_EQ(f.arg(cast, 1, "target_type"), cast.kwargs[0].second);
}

TEST(DslModelTypes, SubscriptSugarReadsAreImplicitLoadsInsideIncore) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl
C = 128

@pl.jit
def f(x: pl.Tensor[[16, 1024], pl.FP32], out: pl.Out[pl.Tensor[[16, 1024], pl.FP32]]):
    for kb in pl.parallel(8):
        k0 = kb * C
        with pl.at(level=pl.Level.CORE_GROUP):
            chunk = x[:, k0 : k0 + C]
            out[:, k0 : k0 + C] = pl.exp(chunk)
    view = x[0:8, 0:64]
    return out
)");
  const dsl::Function& f = fn(m, "f");
  const dsl::Value& chunk = val(f, "chunk");
  EXPECT_EQ(chunk.type.kind, ValueKind::Tensor);
  EXPECT_EQ(chunk.type.shape.str(), "[16, 128]");
  EXPECT_TRUE(chunk.on_chip);
  EXPECT_EQ(chunk.type.space, MemSpace::Vec);
  const dsl::Value& view = val(f, "view");
  EXPECT_EQ(view.type.shape.str(), "[8, 64]");
  EXPECT_FALSE(view.on_chip);
  int reads = 0, writes = 0;
  for (const dsl::SubscriptAccess& a : f.subscripts) (a.write ? writes : reads)++;
  EXPECT_EQ(reads, 2);
  EXPECT_EQ(writes, 1);
  EXPECT_EQ(val(f, "k0").type.kind, ValueKind::Scalar);
}

// A slice whose bounds are unknown but differ by a constant has that extent: both bounds are linear
// forms over the same unknowns (pypto-lib's `q[qb + s * H : qb + (s + 1) * H, :]`).
TEST(DslModelTypes, SliceBoundsThatDifferByAConstantGiveThatExtent) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl
H = 64

@pl.jit
def f(x: pl.Tensor[[4096, 128], pl.FP32], out: pl.Out[pl.Tensor[[4096, 128], pl.FP32]]):
    for s in pl.parallel(8):
        qb = pl.read(x, [0, 0])
        with pl.at(level=pl.Level.CORE_GROUP):
            heads = x[qb + s * H : qb + (s + 1) * H, 0:128]
            neg = x[-(s * 2) + 3 * qb : 3 * qb - 2 * s + 16, 0:128]
            squares = x[s * s : s * s + s, 0:128]
            out[0:64, 0:128] = pl.add(heads, pl.exp(neg[0:64, :]))
    return out
)");
  const dsl::Function& f = fn(m, "f");
  EXPECT_EQ(val(f, "heads").type.shape.str(), "[64, 128]");
  EXPECT_EQ(val(f, "neg").type.shape.str(), "[16, 128]");
  EXPECT_EQ(val(f, "squares").type.shape.str(), "[?, 128]");  // s * s + s - s * s is s: not constant
}

TEST(DslModelUnsupported, ConstructsTheParserRejectsKeepTheirAstKind) {
  dsl::FileModel m = fileModelOf(R"(import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[8, 8], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [8, 8])
        g = lambda v: v
        d = {"a": 1}
        s = 1 if True else 2
        t += 1
        assert True
        for i in range(2):
            pass
        try:
            pass
        except Exception:
            pass
    return x
)");
  const dsl::Function& f = fn(m, "f");
  std::vector<std::string> exprs, stmts;
  for (int e : f.unsupported_exprs) exprs.push_back(f.exprs[static_cast<std::size_t>(e)].name);
  for (const dsl::Stmt& s : f.stmts)
    if (s.kind == dsl::StmtKind::Unsupported) stmts.push_back(s.unsupported);
  EXPECT_EQ(exprs, (std::vector<std::string>{"Lambda", "Dict", "IfExp"}));
  EXPECT_EQ(stmts, (std::vector<std::string>{"AugAssign", "Assert", "Try"}));
  EXPECT_EQ(f.loops[0].iter, dsl::LoopIter::PythonRange);
  // t += 1 rebinds t (to a tile)
  EXPECT_EQ(val(f, "t").type.kind, ValueKind::Tile);
}

}  // namespace
}  // namespace portcheck::test
