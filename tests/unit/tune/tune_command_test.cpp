// port-check tune: the TUNABLES grid screened by the SRAM estimate (pruned over capacity, ranked by
// the binding space's use), text and JSON; and the grid itself.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "test_support.h"
#include "tune/config_space.h"

namespace portcheck {
namespace {

const char* kIncore = R"(import pypto.language as pl

ROWS = 1024
COLS = 256
ROW_TILE = 32
TUNABLES = {"ROW_TILE": (16, 32, 64, 128)}


@pl.jit.incore
def exp_rows(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    for rb in pl.range(ROWS // ROW_TILE):
        t = pl.load(x, [rb * ROW_TILE, 0], [ROW_TILE, COLS])
        e = pl.exp(t)
        s = pl.add(e, t)
        pl.store(s, [rb * ROW_TILE, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    out = exp_rows(x, out)
    return out
)";

struct TuneWorkspace {
  test::TempDir ws;
  TuneWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("projects/p/pypto_src/golden.py", "RTOL = 1e-5\n");
    ws.write("projects/p/pypto_src/incore.py", kIncore);
  }
  test::CommandResult tune(Format f, std::vector<std::string> paths) {
    auto o = test::optionsIn(ws.path(), f);
    return test::runInProcess([&](const Io& io) { return runTune(o, paths, io); });
  }
};

TEST(TuneCommand, PrunesOverCapacityAndRanksTheRestByTheirBindingSpace) {
  TuneWorkspace t;
  auto r = t.tune(Format::Json, {"projects/p"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out)["projects"][0];
  // [ROW_TILE, 256] FP32 per tile, two live at a time (the exp writes in place): 2 x 32 KiB at 32.
  ASSERT_EQ(j["configs"].size(), 4u);
  EXPECT_EQ(j["configs"][0]["values"]["ROW_TILE"], 64);
  EXPECT_EQ(j["configs"][0]["estimate"], 131072);
  EXPECT_EQ(j["configs"][1]["values"]["ROW_TILE"], 32);
  EXPECT_TRUE(j["configs"][1]["current"].get<bool>());
  EXPECT_EQ(j["configs"][2]["values"]["ROW_TILE"], 16);
  EXPECT_EQ(j["configs"][3]["values"]["ROW_TILE"], 128);
  EXPECT_EQ(j["configs"][3]["verdict"], "pruned: over capacity");
  EXPECT_EQ(j["configs"][3]["binding"], "exp_rows/Vec");
  EXPECT_EQ(j["pruned_by_estimate"], 1);
  EXPECT_EQ(j["compiled"], 0);
}

TEST(TuneCommand, TextSaysWhatWasPrunedAndWhatIsNotBuiltYet) {
  TuneWorkspace t;
  auto r = t.tune(Format::Text, {"projects/p"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ROW_TILE=32 (now)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pruned      exp_rows/Vec 262144 of 188416"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 of 4 pruned by the estimate, 0 compiled"), std::string::npos) << r.out;
}

TEST(TuneCommand, APortWithoutTunablesOrNoProjectIsAToolError) {
  TuneWorkspace t;
  t.ws.write("projects/q/pypto_src/golden.py", "RTOL = 1e-5\n");
  t.ws.write("projects/q/pypto_src/incore.py", "ROWS = 8\n");
  auto r = t.tune(Format::Text, {"projects/q"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("no TUNABLES declaration"), std::string::npos) << r.out;
  EXPECT_EQ(t.tune(Format::Text, {}).exit_code, 2);
  EXPECT_EQ(t.tune(Format::Text, {"projects/nowhere"}).exit_code, 2);
}

TEST(TuneGrid, EveryCombinationInDeclarationOrderUpToTheLimit) {
  std::vector<tune::Knob> knobs = {{"A", 2, {1, 2}}, {"B", 8, {4, 8, 16}}};
  bool truncated = true;
  auto grid = tune::gridOf(knobs, 100, truncated);
  EXPECT_FALSE(truncated);
  ASSERT_EQ(grid.size(), 6u);
  EXPECT_EQ(tune::label(grid[0]), "A=1, B=4");
  EXPECT_EQ(tune::label(grid[5]), "A=2, B=16");
  EXPECT_TRUE(tune::isCurrent(grid[4], knobs));  // A=2, B=8
  EXPECT_EQ(tune::gridOf(knobs, 4, truncated).size(), 4u);
  EXPECT_TRUE(truncated);
  EXPECT_TRUE(tune::gridOf({}, 10, truncated).empty());
}

}  // namespace
}  // namespace portcheck
