// Values a module gets from outside its own file at import time: a name an importing module set
// before importing it (`config.SPARSE_TOPK_EFF = WIN` above `from decode_sparse_attn import ...`), and
// the dtypes of a @pl.jit entry's bare `pl.Tensor` parameters from the fixture dict its golden run
// passes by name.
#include "dsl/assumed_constants.h"
#include "dsl_test_support.h"

namespace portcheck::test {
namespace {

const char* kImportedConfig = R"(WIN = 128
TOPK_EFF = None
)";

// Reads config.TOPK_EFF at its import: None gives the full width.
const char* kReader = R"(import config as _cfg

TOPK_FULL = 640
TOPK = _cfg.TOPK_EFF if _cfg.TOPK_EFF is not None else TOPK_FULL
IS_SET = 1 if _cfg.TOPK_EFF is None else 0
)";

const char* kImporterBefore = R"(import config
from config import WIN

config.TOPK_EFF = WIN * 2
from reader import TOPK
OWN = config.TOPK_EFF + 1
)";

std::optional<std::int64_t> constantOf(const dsl::ProgramModel& pm, std::string_view file, std::string_view name) {
  for (const dsl::FileModel& f : pm.files)
    if (f.path == file)
      if (const dsl::Constant* c = f.constant(name); c && c->value.isInt()) return c->value.asInt();
  return std::nullopt;
}

TEST(ImporterValues, AModuleReadsTheValueItsImporterSetBeforeImportingIt) {
  dsl::ProgramModel pm = modelOf({{"attention.py", kImporterBefore}, {"reader.py", kReader}, {"config.py", kImportedConfig}});
  EXPECT_EQ(constantOf(pm, "reader.py", "TOPK"), 256);
  EXPECT_EQ(constantOf(pm, "reader.py", "IS_SET"), 0);
  // The importer's own reads below the assignment see it too.
  EXPECT_EQ(constantOf(pm, "attention.py", "OWN"), 257);
}

TEST(ImporterValues, WithoutAnImporterTheModulesOwnValueStands) {
  dsl::ProgramModel pm = modelOf({{"reader.py", kReader}, {"config.py", kImportedConfig}});
  EXPECT_EQ(constantOf(pm, "reader.py", "TOPK"), 640);  // None: the full width
  EXPECT_EQ(constantOf(pm, "reader.py", "IS_SET"), 1);
}

TEST(ImporterValues, AModuleImportedBeforeTheSetReadsTheOldValue) {
  std::string late = kImporterBefore;
  late.erase(late.find("from reader import TOPK\n"), 23);
  late.replace(late.find("config.TOPK_EFF = WIN * 2"), 0, "from reader import TOPK\n");
  dsl::ProgramModel pm = modelOf({{"attention.py", late}, {"reader.py", kReader}, {"config.py", kImportedConfig}});
  EXPECT_EQ(constantOf(pm, "reader.py", "TOPK"), 640) << late;
}

TEST(ImporterValues, TwoImportersSettingDifferentValuesLeaveTheModulesOwn) {
  std::string other = kImporterBefore;
  other.replace(other.find("WIN * 2"), 7, "WIN * 3");
  dsl::ProgramModel pm = modelOf(
      {{"swa.py", kImporterBefore}, {"hca.py", other}, {"reader.py", kReader}, {"config.py", kImportedConfig}});
  EXPECT_EQ(constantOf(pm, "reader.py", "TOPK"), 640);
  // Each importer still reads its own.
  EXPECT_EQ(constantOf(pm, "swa.py", "OWN"), 257);
  EXPECT_EQ(constantOf(pm, "hca.py", "OWN"), 385);
}

// The measured configuration gives a name the source reads from the command line (`--ep 8`): the
// importer's set then follows it.
TEST(ImporterValues, AnAssumedValueGivesAConstantLeftToRunTimeItsValueOnly) {
  std::string importer = kImporterBefore;
  importer.replace(importer.find("config.TOPK_EFF = WIN * 2"), 25,
                   "import sys\n\n\ndef _ways():\n    return int(sys.argv[1])\n\n\nWAYS = _ways()\n"
                   "config.TOPK_EFF = WIN * WAYS");
  std::vector<SourceFile> files{sourceOf("attention.py", importer), sourceOf("reader.py", kReader),
                                sourceOf("config.py", kImportedConfig)};
  dsl::ProgramModel unknown = dsl::buildProgramModel(files);
  EXPECT_EQ(constantOf(unknown, "reader.py", "TOPK"), std::nullopt) << importer;
  const dsl::ConstantOverrides assumed{{"WAYS", 3}, {"WIN", 1000}};
  dsl::ProgramModel pm = dsl::buildProgramModelAssuming(files, assumed);
  EXPECT_EQ(constantOf(pm, "attention.py", "WAYS"), 3);
  EXPECT_EQ(constantOf(pm, "reader.py", "TOPK"), 128 * 3);  // WIN keeps its own value: it is known
}

// An entry of bare `pl.Tensor` parameters; the golden run passes the tensors of `random_inputs()` by
// name (TensorSpec(name, inputs[name].shape, inputs[name].dtype)).
const char* kBareEntry = R"(import pypto.language as pl
import torch


@pl.jit
def layer(hidden: pl.Tensor, gamma: pl.Tensor, lens: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        x = pl.slice(hidden, [16, 128], [0, 0])
        out = pl.assemble(out, x, [0, 0])
    return out


def random_inputs(seed: int = 1):
    g = torch.Generator().manual_seed(seed)

    def rn(shape, std=1.0):
        return torch.empty(shape).normal_(0.0, std, generator=g)

    lens = torch.full([16], 128, dtype=torch.int32)
    return {
        "hidden": rn([16, 5120]).to(torch.bfloat16),
        "gamma": rn([1, 5120]).float(),
        "lens": lens,
    }
)";

const dsl::Param* paramOf(const dsl::ProgramModel& pm, std::string_view function, std::string_view name) {
  for (const dsl::FileModel& f : pm.files)
    for (const dsl::Function& fn : f.functions)
      if (fn.name == function)
        for (const dsl::Param& p : fn.params)
          if (p.name == name) return &p;
  return nullptr;
}

TEST(ImporterValues, ABareTensorParameterTakesTheDtypeOfTheFixtureTensorOfItsName) {
  dsl::ProgramModel pm = modelOf({{"layer.py", kBareEntry}});
  const dsl::Param* hidden = paramOf(pm, "layer", "hidden");
  const dsl::Param* gamma = paramOf(pm, "layer", "gamma");
  const dsl::Param* lens = paramOf(pm, "layer", "lens");
  const dsl::Param* out = paramOf(pm, "layer", "out");
  ASSERT_TRUE(hidden && gamma && lens && out);
  EXPECT_EQ(hidden->type.dtype, dsl::DType::BF16);
  // Built by the fixture's helper `rn(shape)`, whose tensor is torch.empty(shape): that size.
  ASSERT_TRUE(hidden->type.shape.rank_known);
  EXPECT_EQ(hidden->type.shape.dims, (std::vector<dsl::Dim>{16, 5120}));
  EXPECT_EQ(gamma->type.dtype, dsl::DType::FP32);
  EXPECT_EQ(lens->type.dtype, dsl::DType::Int32);
  ASSERT_TRUE(lens->type.shape.rank_known);
  EXPECT_EQ(lens->type.shape.dims, (std::vector<dsl::Dim>{16}));
  EXPECT_EQ(out->type.dtype, dsl::DType::Unknown);  // no fixture tensor of that name
}

TEST(ImporterValues, AHelperThatIsNotATorchConstructorOfItsFirstArgumentGivesNoShape) {
  std::string text = kBareEntry;
  text.replace(text.find("return torch.empty(shape)"), 25, "return torch.empty([4, 4])");
  dsl::ProgramModel pm = modelOf({{"layer.py", text}});
  const dsl::Param* hidden = paramOf(pm, "layer", "hidden");
  ASSERT_TRUE(hidden) << text;
  EXPECT_EQ(hidden->type.dtype, dsl::DType::BF16) << text;  // the cast still says the dtype
  EXPECT_FALSE(hidden->type.shape.rank_known) << text;
}

TEST(ImporterValues, ADictNamingOneParameterIsNotTheEntrysFixture) {
  std::string text = kBareEntry;
  text.erase(text.find("        \"gamma\""), text.find("        \"lens\"") - text.find("        \"gamma\""));
  text.erase(text.find("        \"lens\": lens,\n"), 22);
  dsl::ProgramModel pm = modelOf({{"layer.py", text}});
  const dsl::Param* hidden = paramOf(pm, "layer", "hidden");
  ASSERT_TRUE(hidden) << text;
  EXPECT_EQ(hidden->type.dtype, dsl::DType::Unknown) << text;
}

}  // namespace
}  // namespace portcheck::test
