// A unit of several files: functions and constants imported from sibling files resolve.
#include "dsl_test_support.h"

namespace portcheck::test {
namespace {

std::vector<SourceFile> readAll(const TempDir& dir, const std::vector<std::string>& rels) {
  std::vector<SourceFile> out;
  for (const std::string& rel : rels) {
    ReadResult r = readSourceFile(dir / rel, "projects/demo/pypto_src/" + rel);
    EXPECT_TRUE(r.file) << rel;
    if (r.file) out.push_back(std::move(*r.file));
  }
  return out;
}

const char* kConfig = "ROWS = 32\nCOLS = 8 * 32\n";

const char* kIncore = R"(import pypto.language as pl
from .config import ROWS, COLS as WIDTH

@pl.function(type=pl.FunctionType.InCore)
def scale(x: pl.Tensor[[ROWS, WIDTH], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, WIDTH], pl.FP32]]):
    t = pl.load(x, [0, 0], [ROWS, WIDTH])
    pl.store(pl.mul(t, 2.0), [0, 0], y)
    return y

@pl.jit.incore
def shift(x: pl.Tensor[[ROWS, WIDTH], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, WIDTH], pl.FP32]]):
    t = pl.load(x, [0, 0], [ROWS, WIDTH])
    pl.store(pl.add(t, 1.0), [0, 0], y)
    return y
)";

const char* kOrchestration = R"(import pypto.language as pl
from .incore import scale
from incore import shift as sh
import incore
from config import ROWS

@pl.jit
def entry(x: pl.Tensor[[ROWS, 256], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, 256], pl.FP32]]):
    tmp = pl.create_tensor([ROWS, 256], dtype=pl.FP32)
    tmp = scale(x, tmp)
    tmp = sh(tmp, tmp)
    y = incore.scale(tmp, y)
    z = missing_function(y)
    return y
)";

TEST(DslCrossFile, CallsAndConstantsResolveAcrossSiblingFiles) {
  TempDir dir;
  dir.write("config.py", kConfig);
  dir.write("incore.py", kIncore);
  dir.write("orchestration.py", kOrchestration);
  std::vector<SourceFile> files = readAll(dir, {"orchestration.py", "incore.py", "config.py"});
  dsl::ProgramModel pm = dsl::buildProgramModel(files);
  ASSERT_EQ(pm.files.size(), 3u);
  const dsl::FileModel& orch = pm.files[0];
  const dsl::FileModel& inc = pm.files[1];

  // constants imported through a relative and an absolute from-import, renamed too
  ASSERT_NE(inc.constant("WIDTH"), nullptr);
  EXPECT_EQ(inc.constant("WIDTH")->value.asInt(), 256);
  EXPECT_TRUE(inc.constant("WIDTH")->imported);
  EXPECT_EQ(fn(inc, "scale").params[0].type.shape.str(), "[32, 256]");
  EXPECT_EQ(val(fn(inc, "scale"), "t").type.bytes(), 32 * 256 * 4);
  EXPECT_EQ(fn(orch, "entry").params[0].type.shape.str(), "[32, 256]");

  const dsl::Function& entry = fn(orch, "entry");
  std::vector<std::string> resolved;
  int unresolved = 0;
  for (int c : entry.calls) {
    const dsl::Expr& e = entry.exprs[static_cast<std::size_t>(c)];
    if (!e.pl_name.empty()) continue;
    const dsl::Function* callee = pm.function(pm.callee(entry, e));
    if (callee) resolved.push_back(e.name + "->" + callee->name);
    else ++unresolved;
  }
  EXPECT_EQ(resolved, (std::vector<std::string>{"scale->scale", "sh->shift", "incore.scale->scale"}));
  EXPECT_EQ(unresolved, 1);  // missing_function
  for (int c : entry.calls) {
    const dsl::Expr& e = entry.exprs[static_cast<std::size_t>(c)];
    if (e.callee_file >= 0) EXPECT_EQ(e.callee_file, 1);
  }
  // kernel names of the unit: InCore function names
  EXPECT_EQ(sorted(pm.kernelNames()), (std::vector<std::string>{"scale", "shift"}));
  EXPECT_EQ(pm.allFunctions().size(), 3u);
}

TEST(DslCrossFile, PackageImportsResolveFromSubfolders) {
  TempDir dir;
  dir.write("config.py", "TILE = 64\n");
  dir.write("kernels/__init__.py", "");
  dir.write("kernels/norm.py", R"(import pypto.language as pl
from ..config import TILE

@pl.jit.inline
def norm(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="rmsnorm"):
        t = pl.load(x, [0, 0], [TILE, TILE])
    with pl.at(level=pl.Level.CORE_GROUP):
        u = pl.load(x, [0, 0], [TILE, TILE])
    return y
)");
  dir.write("model.py", R"(import pypto.language as pl
from .kernels.norm import norm

@pl.jit
def model(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    y = norm(x, y)
    return y
)");
  std::vector<SourceFile> files = readAll(dir, {"model.py", "config.py", "kernels/__init__.py", "kernels/norm.py"});
  dsl::ProgramModel pm = dsl::buildProgramModel(files);
  const dsl::Function& model = fn(pm.files[0], "model");
  const dsl::Expr& call = model.exprs[static_cast<std::size_t>(model.calls[0])];
  EXPECT_EQ(call.callee_file, 3);
  const dsl::Function& norm = fn(pm.files[3], "norm");
  EXPECT_EQ(val(norm, "t").type.shape.str(), "[64, 64]");
  // a hinted scope of an inline helper keeps its hint; an unnamed one is named after its one caller, as
  // the compiler's outliner names it once the helper is inlined: <caller>_incore_<k>, k counting every
  // InCore scope of the caller (the hinted one is 0)
  ASSERT_EQ(norm.regions.size(), 2u);
  EXPECT_EQ(norm.regions[0].kernel_name, "rmsnorm");
  EXPECT_EQ(norm.regions[1].kernel_name, "model_incore_1");
}

// An inline stage returning several tensors (`-> tuple[pl.Tensor[...], ...]`): the caller's unpacked
// names take the annotation's element types (pypto-lib's prefill attention stage returns its FP32
// accumulators this way).
TEST(DslCrossFile, AStagesTupleReturnAnnotationTypesWhatTheCallerUnpacks) {
  dsl::ProgramModel pm = modelOf({{"p.py", R"(import pypto.language as pl


@pl.jit.inline
def stage(x: pl.Tensor[[64, 128], pl.BF16], acc: pl.Tensor[[64, 128], pl.FP32],
          rows: pl.Tensor[[64, 1], pl.FP32]) -> tuple[pl.Tensor[[64, 128], pl.FP32], pl.Tensor[[64, 1], pl.FP32]]:
    return acc, rows


@pl.jit
def entry(x: pl.Tensor[[64, 128], pl.BF16], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    acc = pl.create_tensor([64, 128], dtype=pl.FP32)
    rows = pl.create_tensor([64, 1], dtype=pl.FP32)
    out_acc, out_rows = stage(x, acc, rows)
    return y
)"}});
  const dsl::Function& entry = fn(pm.files[0], "entry");
  EXPECT_EQ(val(entry, "out_acc").type.dtype, dsl::DType::FP32);
  EXPECT_EQ(val(entry, "out_acc").type.shape.str(), "[64, 128]");
  EXPECT_EQ(val(entry, "out_rows").type.shape.str(), "[64, 1]");
}

}  // namespace
}  // namespace portcheck::test
