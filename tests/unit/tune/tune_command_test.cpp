// port-check tune: the TUNABLES grid screened by the SRAM estimate (pruned over capacity, ranked by
// the binding space's use), text and JSON; and the grid itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "test_support.h"
#include "tune/config_space.h"
#include "tune/config_tree.h"

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
  test::CommandResult tune(Format f, std::vector<std::string> paths, bool compile = false) {
    auto o = test::optionsIn(ws.path(), f);
    TuneOptions t;
    t.compile = compile;
    return test::runInProcess([&](const Io& io) { return runTune(o, t, paths, io); });
  }
  // Options with the stand-in compiler (tests/fixtures/compile/fake-python.sh) as the toolchain, every
  // compile of projects/p succeeding.
  CommonOptions withFakeCompiler() {
    ws.write("pypto/python/pypto/__init__.py", "");
    ws.write("projects/p/pypto_src/FAKE_MODE", "ok\n");
    auto o = test::optionsIn(ws.path(), Format::Json);
    o.toolchain.pypto = (ws / "pypto").string();
    o.toolchain.python = test::fakeCompilePython();
    return o;
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
  EXPECT_EQ(j["configs"][3]["verdict"], "pruned");
  EXPECT_EQ(j["configs"][3]["pruned"], "over capacity: exp_rows/Vec 262144 of 188416");
  // One task; every configuration moves x in and out once: 2 x 1 MiB.
  EXPECT_EQ(j["configs"][0]["tasks"], 1);
  EXPECT_EQ(j["configs"][0]["gm_bytes"], 2 * 1024 * 256 * 4);
  EXPECT_EQ(j["configs"][0]["verdict"], "estimate only");
  EXPECT_EQ(j["strategy"], "grid");
  EXPECT_EQ(j["compiles_saved"], 1);
  EXPECT_FALSE(j.contains("pick"));  // nothing compiled
  EXPECT_EQ(j["configs"][3]["binding"], "exp_rows/Vec");
  EXPECT_EQ(j["pruned_by_estimate"], 1);
  EXPECT_EQ(j["compiled"], 0);
}

TEST(TuneCommand, TextSaysWhatWasPrunedAndWhyNothingWasCompiled) {
  TuneWorkspace t;
  auto r = t.tune(Format::Text, {"projects/p"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ROW_TILE=32 (now)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PRUNED over capacity: exp_rows/Vec 262144 of 188416"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 of 4 pruned by the estimate (compiles saved), 0 compiled, 0 run (--no-compile)"),
            std::string::npos)
      << r.out;
}

// A port with no knob still gets its row: the port as it is, screened (and compiled and run when asked).
TEST(TuneCommand, APortWithoutAKnobIsEvaluatedAsItIsAndNoProjectIsAToolError) {
  TuneWorkspace t;
  t.ws.write("projects/q/pypto_src/golden.py", "RTOL = 1e-5\n");
  t.ws.write("projects/q/pypto_src/incore.py", "ROWS = 8\n");
  auto r = t.tune(Format::Text, {"projects/q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("note: no knob"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the port as it is (now)"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(t.tune(Format::Json, {"projects/q"}).out)["projects"][0];
  EXPECT_EQ(j["configs"].size(), 1u);
  EXPECT_TRUE(j["configs"][0]["current"].get<bool>());
  EXPECT_NE(j["note"].get<std::string>().find("no knob"), std::string::npos);
  EXPECT_EQ(t.tune(Format::Text, {}).exit_code, 2);
  EXPECT_EQ(t.tune(Format::Text, {"projects/nowhere"}).exit_code, 2);
}

// With a toolchain (here the stand-in compiler, tests/fixtures/compile/fake-python.sh), every survivor
// is compiled in its own copy of the port, the constant set in it; the pruned ones are not compiled.
TEST(TuneCommand, CompilesEachSurvivorInACopyOfThePort) {
  TuneWorkspace t;
  auto o = t.withFakeCompiler();
  TuneOptions opts;
  auto r = test::runInProcess([&](const Io& io) { return runTune(o, opts, {"projects/p"}, io); });
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out)["projects"][0];
  EXPECT_EQ(j["compiled"], 3);
  EXPECT_EQ(j["pick"], "ROW_TILE=64");  // the stand-in compiler reports no SRAM: the estimate's use decides
  EXPECT_EQ(j["configs"][0]["verdict"], "compiled");
  for (const auto& c : j["configs"]) {
    bool fits = c["verdict"] != "pruned";
    EXPECT_EQ(c.contains("compile"), fits) << c.dump();
    if (fits) EXPECT_EQ(c["compile"]["status"], "ok") << c.dump();
  }
  // The copies hold the configuration's value; the user's file keeps its own.
  std::string copy = test::readFile(t.ws / ".port-check-cache/tune/p" /
                                    std::filesystem::directory_iterator(t.ws / ".port-check-cache/tune/p")->path().filename() /
                                    "projects/p/pypto_src/incore.py");
  EXPECT_NE(copy.find("ROW_TILE = "), std::string::npos);
  EXPECT_NE(test::readFile(t.ws / "projects/p/pypto_src/incore.py").find("ROW_TILE = 32\n"), std::string::npos);
}

TEST(TuneCommand, ApplyWritesThePickIntoThePortAndRecordsOneLedgerAttempt) {
  TuneWorkspace t;
  auto o = t.withFakeCompiler();
  TuneOptions opts;
  opts.apply = true;
  opts.html = (t.ws / "tune.html").string();
  auto r = test::runInProcess([&](const Io& io) { return runTune(o, opts, {"projects/p"}, io); });
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out)["projects"][0];
  EXPECT_EQ(j["apply"]["note"], "applied ROW_TILE=64") << j.dump();
  EXPECT_NE(test::readFile(t.ws / "projects/p/pypto_src/incore.py").find("ROW_TILE = 64\n"), std::string::npos);
  std::string ledger = test::readFile(t.ws / "projects/p/.port-check/ledger.jsonl");
  EXPECT_EQ(std::count(ledger.begin(), ledger.end(), '\n'), 1) << ledger;
  EXPECT_NE(ledger.find("tune --apply"), std::string::npos) << ledger;
  EXPECT_NE(test::readFile(t.ws / "tune.html").find("Schedule search: p (a2a3)"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(t.ws / ".port-check-cache/tune/p/a2a3.json"));
  // Tuned again, the port as it is ranks first: nothing is written.
  r = test::runInProcess([&](const Io& io) { return runTune(o, opts, {"projects/p"}, io); });
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["projects"][0]["apply"]["note"], "nothing applied: the port as it is ranks first")
      << r.out;
}

// A knob a pypto-lib block the port imports assigns too is set in the block's copy as well; --apply
// refuses to write only half of it.
TEST(TuneCommand, AKnobSharedWithAPyptoLibBlockIsSetInBothAndNotApplied) {
  TuneWorkspace t;
  auto o = t.withFakeCompiler();
  t.ws.write("pypto-lib/blk/blk.py", "ROW_TILE = 32\n");
  std::string text = kIncore;
  text.insert(text.find("ROWS = 1024"), R"(import sys
from pathlib import Path

_BLOCK = Path(__file__).resolve().parents[3] / "pypto-lib" / "blk"
if str(_BLOCK) not in sys.path:
    sys.path.insert(0, str(_BLOCK))

from blk import ROW_TILE as BLOCK_ROWS  # noqa: E402,F401

)");
  t.ws.write("projects/p/pypto_src/incore.py", text);
  TuneOptions opts;
  opts.apply = true;
  auto r = test::runInProcess([&](const Io& io) { return runTune(o, opts, {"projects/p"}, io); });
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out)["projects"][0];
  EXPECT_EQ(j["shared_with_blocks"], nlohmann::json({"ROW_TILE in pypto-lib/blk/blk.py"})) << j.dump();
  EXPECT_EQ(j["apply"]["note"].get<std::string>().rfind("not applied: the configurations set ROW_TILE in", 0), 0u);
  EXPECT_NE(test::readFile(t.ws / "projects/p/pypto_src/incore.py").find("ROW_TILE = 32\n"), std::string::npos);
  // The copy compiled for ROW_TILE=64 has the block's constant set too.
  bool found = false;
  for (const auto& e : std::filesystem::directory_iterator(t.ws / ".port-check-cache/tune/p"))
    if (e.is_directory() && test::readFile(e.path() / "projects/p/pypto_src/incore.py").find("ROW_TILE = 64") != std::string::npos) {
      EXPECT_EQ(test::readFile(e.path() / "pypto-lib/blk/blk.py"), "ROW_TILE = 64\n");
      found = true;
    }
  EXPECT_TRUE(found);
}

TEST(TuneCommand, ApplyWithoutTheCompilerIsRefused) {
  TuneWorkspace t;
  auto o = test::optionsIn(t.ws.path(), Format::Text);
  TuneOptions opts;
  opts.apply = true;
  opts.compile = false;
  auto r = test::runInProcess([&](const Io& io) { return runTune(o, opts, {"projects/p"}, io); });
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--apply needs the compiler"), std::string::npos) << r.err;
}

TEST(TuneCommand, APortWithoutTunablesGetsKnobsProposedFromItsShapes) {
  TuneWorkspace t;
  std::string text = kIncore;
  text.erase(text.find("TUNABLES"), text.find('\n', text.find("TUNABLES")) - text.find("TUNABLES") + 1);
  t.ws.write("projects/p/pypto_src/incore.py", text);
  auto r = t.tune(Format::Json, {"projects/p"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out)["projects"][0];
  ASSERT_EQ(j["knobs"].size(), 1u);
  EXPECT_EQ(j["knobs"][0]["name"], "ROW_TILE");
  EXPECT_TRUE(j["knobs"][0]["proposed"].get<bool>());
  EXPECT_EQ(j["knobs"][0]["candidates"], nlohmann::json({4, 8, 16, 32, 64, 128, 256}));
  EXPECT_EQ(j["configs"][0]["label"], "ROW_TILE=64");
}

TEST(TuneTree, SetsTheLastModuleAssignmentOfTheConstant) {
  EXPECT_EQ(*tune::withConstant("A = 1\nROW_TILE = 32  # rows\nB = 2\n", "ROW_TILE", 64),
            "A = 1\nROW_TILE = 64  # rows\nB = 2\n");
  EXPECT_EQ(*tune::withConstant("ROW_TILE: int = 32", "ROW_TILE", 16), "ROW_TILE: int = 16");
  EXPECT_EQ(*tune::withConstant("ROW_TILE = 8\nROW_TILE = 32\n", "ROW_TILE", 16), "ROW_TILE = 8\nROW_TILE = 16\n");
  EXPECT_FALSE(tune::withConstant("MY_ROW_TILE = 32\n    ROW_TILE = 4\n", "ROW_TILE", 16));  // not module level
  EXPECT_FALSE(tune::withConstant("COLS = 256\n", "ROW_TILE", 16));
}

// A knob proposed from a pypto-lib stage the port calls is assigned in the block only: its copy gets the
// value, and a knob assigned nowhere is an error naming both places.
TEST(TuneTree, AKnobAssignedOnlyInAPyptoLibBlockIsSetInTheBlocksCopy) {
  test::TempDir ws;
  ws.write("projects/p/pypto_src/orchestration.py", "from blk import stage\n");
  ws.write("pypto-lib/blk/blk.py", "N_TILE = 64\n");
  Workspace w{std::filesystem::canonical(ws.path())};
  Project p;
  p.name = "p";
  p.dir = w.root / "projects/p";
  p.pypto_src = p.dir / "pypto_src";
  std::string error;
  auto target = tune::writeConfigTree(w, p, {{"N_TILE", 128}}, w.root / ".cache", error);
  ASSERT_TRUE(target) << error;
  EXPECT_EQ(test::readFile(target->tree_root / "pypto-lib/blk/blk.py"), "N_TILE = 128\n");
  EXPECT_FALSE(tune::writeConfigTree(w, p, {{"K_TILE", 128}}, w.root / ".cache", error));
  EXPECT_NE(error.find("no file of projects/p/pypto_src or pypto-lib assigns K_TILE"), std::string::npos) << error;
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

// The loop structure as a knob: how many row blocks one task walks decides how many tasks there are.
// Fewer, larger tasks save the runtime's per-task cost but leave cores idle; the device-time model
// weighs the two, tune ranks by it, and the FUSE / PERF advice on the pick does not point back.
const char* kBlocksPerTask = R"(import pypto.language as pl

ROWS = 8192
BLOCK = 32
BLOCKS_PER_TASK = 1
TUNABLES = {"BLOCKS_PER_TASK": (1, 4, 16, 64, 256)}


@pl.jit.incore
def exp_rows(x: pl.Tensor[[8192, 256], pl.FP32], out: pl.Out[pl.Tensor[[8192, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    for b in pl.range(BLOCKS_PER_TASK):
        t = pl.load(x, [r0 + b * BLOCK, 0], [BLOCK, 256])
        e = pl.exp(t)
        pl.store(e, [r0 + b * BLOCK, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[8192, 256], pl.FP32], out: pl.Out[pl.Tensor[[8192, 256], pl.FP32]]):
    for c in pl.parallel(ROWS // (BLOCK * BLOCKS_PER_TASK)):
        r0 = c * BLOCK * BLOCKS_PER_TASK
        out = exp_rows(x, out, r0)
    return out
)";

TEST(TuneCommand, RanksLoopStructureByEstimatedDeviceTimeAndTheAdviceAgreesWithThePick) {
  TuneWorkspace t;
  t.ws.write("projects/p/pypto_src/incore.py", kBlocksPerTask);
  auto r = t.tune(Format::Json, {"projects/p"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out)["projects"][0];
  ASSERT_EQ(j["configs"].size(), 5u) << r.out;
  // Ranked by the model's time, shortest first; 256 tasks of one block pay the runtime's per-task
  // cost, 1 task of 256 blocks runs on one core: neither end wins.
  double last = 0;
  for (const auto& c : j["configs"]) {
    ASSERT_TRUE(c["device_us"].is_number()) << c.dump();
    EXPECT_GE(c["device_us"].get<double>() * 1.02, last) << c.dump();
    last = c["device_us"].get<double>();
  }
  const int pick = j["configs"][0]["values"]["BLOCKS_PER_TASK"];
  EXPECT_NE(pick, 1);
  EXPECT_NE(pick, 256);
  // The pick written into the port: no FUSE005 to move the loop back into fewer tasks; PERF002 may
  // still propose what no knob can express (the blocks as one pl.spmd launch), never more dispatches.
  std::string incore = kBlocksPerTask;
  incore.replace(incore.find("BLOCKS_PER_TASK = 1\n"), 20, "BLOCKS_PER_TASK = " + std::to_string(pick) + "\n");
  t.ws.write("projects/p/pypto_src/incore.py", incore);
  auto o = test::optionsIn(t.ws.path(), Format::Json);
  auto l = test::runInProcess([&](const Io& io) { return runLint(o, {"projects/p"}, io); });
  EXPECT_EQ(l.out.find("FUSE005"), std::string::npos) << l.out;
  if (std::size_t at = l.out.find("PERF002"); at != std::string::npos)
    EXPECT_NE(l.out.find("pl.spmd(", l.out.rfind("\"message\"", at)), std::string::npos) << l.out;
}

// A loop whose trip count is a length read from a tensor at run time: without --assume no configuration
// has an estimated time; with it every one has, and a bad --assume is a tool error.
const char* kRunTimeRows = R"(import pypto.language as pl

ROW_TILE = 32
TUNABLES = {"ROW_TILE": (16, 32, 64)}


@pl.jit.incore
def exp_rows(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [r0, 0], [ROW_TILE, 256])
    pl.store(pl.exp(t), [r0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[1024, 256], pl.FP32], lens: pl.Tensor[[1], pl.INT32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    n_rows = pl.cast(pl.tensor.read(lens, [0]), pl.INDEX)
    for rb in pl.range(n_rows // ROW_TILE):
        r0 = rb * ROW_TILE
        out = exp_rows(x, out, r0)
    return out
)";

TEST(TuneCommand, AssumedRunTimeValuesGiveEveryConfigurationAnEstimatedTime) {
  TuneWorkspace t;
  t.ws.write("projects/p/pypto_src/incore.py", kRunTimeRows);
  auto o = test::optionsIn(t.ws.path(), Format::Json);
  TuneOptions opts;
  opts.compile = false;
  auto without = test::runInProcess([&](const Io& io) { return runTune(o, opts, {"projects/p"}, io); });
  ASSERT_EQ(without.exit_code, 0) << without.out << without.err;
  const auto without_report = nlohmann::json::parse(without.out);
  for (const auto& c : without_report["projects"][0]["configs"]) EXPECT_TRUE(c["device_us"].is_null()) << c.dump();
  opts.assume = {"n_rows=512"};
  auto with = test::runInProcess([&](const Io& io) { return runTune(o, opts, {"projects/p"}, io); });
  ASSERT_EQ(with.exit_code, 0) << with.out << with.err;
  auto configs = nlohmann::json::parse(with.out)["projects"][0]["configs"];
  ASSERT_EQ(configs.size(), 3u) << with.out;
  for (const auto& c : configs) {
    ASSERT_TRUE(c["device_us"].is_number()) << c.dump();
    EXPECT_EQ(c["tasks"], 512 / c["values"]["ROW_TILE"].get<int>()) << c.dump();
  }
  opts.assume = {"n_rows"};
  auto bad = test::runInProcess([&](const Io& io) { return runTune(o, opts, {"projects/p"}, io); });
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--assume takes NAME=INTEGER, got 'n_rows'"), std::string::npos) << bad.err;
}

// A candidate whose tiles the hardware cannot hold (DSL111: a [4, 1] FP32 column) is pruned before any
// compile: the simulator's kernel build would stop on it (the Qwen3 layer's NORM_ROWS=4, proposed and
// ranked before).
TEST(TuneCommand, ACandidateWithAMisalignedColumnTileIsPruned) {
  TuneWorkspace t;
  t.ws.write("projects/p/pypto_src/incore.py", R"(import pypto.language as pl

ROWS = 8
TUNABLES = {"ROWS": (4, 8, 16)}


@pl.jit
def entry(x: pl.Tensor[[64, 1024], pl.FP32], y: pl.Out[pl.Tensor[[64, 1024], pl.FP32]]):
    for rb in pl.spmd(64 // ROWS):
        r0 = rb * ROWS
        xf = pl.load(x, [r0, 0], [ROWS, 1024])
        ssq = pl.row_sum(pl.mul(xf, xf))
        pl.store(pl.row_expand_mul(xf, ssq), [r0, 0], y)
    return y
)");
  auto r = t.tune(Format::Json, {"projects/p"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  int pruned = 0;
  const auto report = nlohmann::json::parse(r.out);
  for (const auto& c : report["projects"][0]["configs"]) {
    const bool four = c["values"]["ROWS"] == 4;
    const std::string why = c.value("pruned", "");
    EXPECT_EQ(four, why.find("tile alignment (DSL111)") != std::string::npos) << c.dump();
    pruned += four;
  }
  EXPECT_EQ(pruned, 1) << r.out;
}

}  // namespace
}  // namespace portcheck
