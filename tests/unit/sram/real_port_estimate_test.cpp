// Estimator regressions found by compiling the real ports (projects/, pypto-lib/) with the real
// PyPTO compiler (pypto e2d0f78a, passes level, a2a3). Each fixture of tests/fixtures/sram_real/ is a
// copy of a pypto-lib block (or a variant of one); the figures asserted are the compiler's
// AllocateMemoryAddr high-water marks for it, as kept in projects/<port>/port-check-report.a2a3.json.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/source_file.h"
#include "dsl/dsl_model.h"
#include "lint/python_unit_support.h"
#include "lint/sram_lint.h"
#include "sram/sram_estimator.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

fs::path fixture(const std::string& name) { return fs::path(test::fixturesDir()) / "sram_real" / name; }

std::vector<sram::KernelEstimate> estimateFile(const std::string& name, Platform platform = Platform::A2A3) {
  std::vector<SourceFile> files(1);
  files[0].path = name;
  files[0].text = test::readFile(fixture(name));
  dsl::ProgramModel model = dsl::buildProgramModel(files);
  return sram::estimateProgram(model, platform);
}

std::vector<Diagnostic> lintText(const std::string& name, const std::string& text, Platform platform = Platform::A2A3) {
  std::vector<SramRow> rows;
  return test::estimatePythonText(name, text, rows, platform);
}

std::vector<Diagnostic> lintFile(const std::string& name) { return lintText(name, test::readFile(fixture(name))); }

const sram::KernelEstimate* kernel(const std::vector<sram::KernelEstimate>& ks, const std::string& name) {
  for (const auto& k : ks)
    if (k.kernel == name) return &k;
  return nullptr;
}

std::int64_t hwm(const std::vector<sram::KernelEstimate>& ks, const std::string& name, const std::string& space) {
  const sram::KernelEstimate* k = kernel(ks, name);
  if (!k) return -1;
  const sram::SpaceEstimate* s = k->space(space);
  return s ? s->hwm : 0;
}

std::string rules(const std::vector<Diagnostic>& ds) {
  std::string out;
  for (const Diagnostic& d : ds) out += d.rule + " " + std::to_string(d.line) + ": " + d.message + "\n";
  return out;
}

// Bug 1: pl.slice inside pl.at was estimated as a Vec load of the whole sliced tensor (2883584 B for
// w_gate) and split the cube side off as a mixed kernel. The compiler loads the [64, 256] region into
// Mat, like the equivalent subscript x[a:b, c:d].
TEST(RealPortEstimate, SliceInsideTheScopeIsALoadOfTheSlicedRegionIntoMat) {
  for (const std::string name : {"swiglu_gate_up_slice.py", "swiglu_gate_up_subscript.py"}) {
    SCOPED_TRACE(name);
    auto ks = estimateFile(name);
    // pypto: gate_up_swiglu_aic Mat 131072 (x [128, 256] + w_gate, w_up [64, 256] chunks, BF16),
    // Left 65536, Right 32768, Acc 65536; gate_up_swiglu_aiv Vec 98304.
    EXPECT_EQ(hwm(ks, "gate_up_swiglu_aic", "Mat"), 131072);
    EXPECT_EQ(hwm(ks, "gate_up_swiglu_aic", "Left"), 65536);
    EXPECT_EQ(hwm(ks, "gate_up_swiglu_aic", "Right"), 32768);
    EXPECT_EQ(hwm(ks, "gate_up_swiglu_aic", "Acc"), 65536);
    ASSERT_NE(kernel(ks, "gate_up_swiglu_aiv"), nullptr);
    for (const auto& k : ks)
      for (const auto& s : k.spaces)
        for (const auto& t : s.tiles) EXPECT_LT(t.bytes, 1 << 20) << k.kernel << " " << s.space << " " << t.name;
    auto ds = lintFile(name);
    for (const Diagnostic& d : ds) EXPECT_NE(d.rule, "MEM001") << rules(ds);
  }
}

TEST(RealPortEstimate, CubeOnlyScopeWithSliceOperandsStaysOneKernel) {
  // matmul_bt with its operand views written with pl.slice: still the cube-only kernel 'matmul_bt'.
  std::string text = test::readFile(fixture("matmul_bt.py"));
  auto swap = [&](const std::string& from, const std::string& to) {
    auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  swap("a[0:M_TILE, k0 : k0 + K_TILE]", "pl.slice(a, [M_TILE, K_TILE], [0, k0])");
  swap("w[d0 : d0 + D_TILE, k0 : k0 + K_TILE]", "pl.slice(w, [D_TILE, K_TILE], [d0, k0])");
  std::vector<SourceFile> files(1);
  files[0].path = "matmul_bt_slice.py";
  files[0].text = text;
  auto ks = sram::estimateProgram(dsl::buildProgramModel(files), Platform::A2A3);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].kernel, "matmul_bt");
  EXPECT_FALSE(ks[0].split);
  EXPECT_EQ(ks[0].space("Vec"), nullptr);
  EXPECT_EQ(hwm(ks, "matmul_bt", "Mat"), 98304);
  for (const Diagnostic& d : lintText("matmul_bt_slice.py", text)) EXPECT_NE(d.rule, "MEM001") << d.message;
}

// Bug 3: a tensor-level matmul got only its Acc estimated. pypto: matmul_bt Mat 98304, Left 65536
// (100 %), Right 32768, Acc 32768.
TEST(RealPortEstimate, TensorLevelMatmulGetsMatLeftRightAndAcc) {
  auto ks = estimateFile("matmul_bt.py");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].kernel, "matmul_bt");
  EXPECT_EQ(hwm(ks, "matmul_bt", "Mat"), 98304);
  EXPECT_EQ(hwm(ks, "matmul_bt", "Left"), 65536);
  EXPECT_EQ(hwm(ks, "matmul_bt", "Right"), 32768);
  EXPECT_EQ(hwm(ks, "matmul_bt", "Acc"), 32768);
}

// Bug 2: a widening cast cannot write into its input's buffer (MemoryReuse forbids it). pypto:
// rms_norm_residual_rows Vec 84000 (FP32 32768, BF16 16384, FP32 32768, weight 2048, row stat 32);
// the estimate was 69664 when the BF16 -> FP32 cast shared the BF16 load's buffer.
TEST(RealPortEstimate, WideningCastNeedsItsOwnBuffer) {
  auto ks = estimateFile("rms_norm_residual.py");
  EXPECT_EQ(hwm(ks, "rms_norm_residual_rows", "Vec"), 84000);
}

TEST(RealPortEstimate, NarrowingCastStillWritesInPlace) {
  const std::string text = R"(import pypto.language as pl


@pl.jit.incore
def narrow(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.BF16]]):
    t = pl.load(x, [0, 0], [64, 128])
    pl.store(pl.cast(t, target_type=pl.BF16, mode="rint"), [0, 0], y)
    return y
)";
  std::vector<SourceFile> files(1);
  files[0].path = "narrow.py";
  files[0].text = text;
  auto ks = sram::estimateProgram(dsl::buildProgramModel(files), Platform::A2A3);
  EXPECT_EQ(hwm(ks, "narrow", "Vec"), 32768);  // the BF16 result shares the FP32 load's buffer
}

// Bug 4: FUSE005 suggested moving a 64-task pl.parallel loop into the scope, leaving 1 task for 48
// AIV cores. Moving is advised only while the tasks left still cover the cores.
std::string loopProgram(int trips) {
  return "import pypto.language as pl\n\n\n@pl.jit\ndef rows(x: pl.Tensor[[" + std::to_string(trips * 8) +
         ", 256], pl.FP32], y: pl.Out[pl.Tensor[[" + std::to_string(trips * 8) +
         ", 256], pl.FP32]]):\n    for rb in pl.parallel(" + std::to_string(trips) +
         "):\n        with pl.at(level=pl.Level.CORE_GROUP):\n            t = pl.load(x, [rb * 8, 0], [8, 256])\n"
         "            u = pl.exp(t)\n            pl.store(u, [rb * 8, 0], y)\n    return y\n";
}

int count(const std::vector<Diagnostic>& ds, const std::string& rule) {
  int n = 0;
  for (const Diagnostic& d : ds) n += d.rule == rule;
  return n;
}

TEST(RealPortEstimate, LoopIntoScopeKeepsAtLeastOneTaskPerCore) {
  EXPECT_EQ(count(lintText("p64.py", loopProgram(64)), "FUSE005"), 0);  // 64 tasks -> 1 for 48 AIV
  auto ds = lintText("p4096.py", loopProgram(4096));
  ASSERT_EQ(count(ds, "FUSE005"), 1) << rules(ds);
  for (const Diagnostic& d : ds)
    if (d.rule == "FUSE005") {
      EXPECT_NE(d.message.find("64 chunks of 64 iterations"), std::string::npos) << d.message;
      EXPECT_NE(d.message.find("48 AIV cores of a2a3"), std::string::npos) << d.message;
    }
  // a5 has 36 AIV cores: of 96 iterations, the first divisor giving at least 36 tasks is 48 chunks of 2.
  auto a5 = lintText("p96.py", loopProgram(96), Platform::A5);
  ASSERT_EQ(count(a5, "FUSE005"), 1) << rules(a5);
  for (const Diagnostic& d : a5)
    if (d.rule == "FUSE005") {
      EXPECT_NE(d.message.find("48 chunks of 2 iterations"), std::string::npos) << d.message;
      EXPECT_NE(d.message.find("36 AIV cores of a5"), std::string::npos) << d.message;
    }
}

// Bug 5: FUSE002 proposed acc [128, 64] -> [512, 64] for a tensor of 128 rows. The growth stops at
// the tensor's extent: matmul_bt's output y is [128, 1024], so only the 64 columns can grow.
TEST(RealPortEstimate, GrowAdviceStaysInsideTheTensor) {
  auto ds = lintFile("matmul_bt.py");
  for (const Diagnostic& d : ds) {
    if (d.rule != "FUSE002") continue;
    EXPECT_EQ(d.message.find("[256, 64]"), std::string::npos) << d.message;
    EXPECT_EQ(d.message.find("[512, 64]"), std::string::npos) << d.message;
  }
  // A tile already spanning its whole tensor gets no growth advice.
  const std::string whole = R"(import pypto.language as pl


@pl.jit
def whole(x: pl.Tensor[[16, 128], pl.FP32], y: pl.Out[pl.Tensor[[16, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 128])
        u = pl.exp(t)
        pl.store(u, [0, 0], y)
    return y
)";
  EXPECT_EQ(count(lintText("whole.py", whole), "FUSE002"), 0) << rules(lintText("whole.py", whole));
}

// pl.pipeline(stage=2) double-buffers the tiles of its body; pl.tile.transpose_view is a view. pypto
// (projects/lightning_indexer_prolog q_proj): Mat 98304, Left 32768, Right 65536, Acc 32768; the
// estimate was half of each before. pypto-lib/attention_matmul qk_matmul: one AIC kernel, Mat 32768,
// Left 16384, Right 16384, Acc 16384 (it was split into qk_matmul_aic / a phantom qk_matmul_aiv).
TEST(RealPortEstimate, PipelineStagesAndTransposeViews) {
  auto ks = estimateFile("indexer_q_proj.py");
  EXPECT_EQ(hwm(ks, "q_proj", "Mat"), 98304);
  EXPECT_EQ(hwm(ks, "q_proj", "Left"), 32768);
  EXPECT_EQ(hwm(ks, "q_proj", "Right"), 65536);
  EXPECT_EQ(hwm(ks, "q_proj", "Acc"), 32768);
  auto qk = estimateFile("attention_qk_matmul.py");
  ASSERT_EQ(qk.size(), 1u);
  EXPECT_EQ(qk[0].kernel, "qk_matmul");
  EXPECT_EQ(hwm(qk, "qk_matmul", "Mat"), 32768);
  EXPECT_EQ(hwm(qk, "qk_matmul", "Left"), 16384);
  EXPECT_EQ(hwm(qk, "qk_matmul", "Right"), 16384);
  EXPECT_EQ(hwm(qk, "qk_matmul", "Acc"), 16384);
}

}  // namespace
}  // namespace portcheck
