// tune --only (what each Ray job of tune --ray runs: one configuration, compiled whatever the screen says)
// and the checks of tune --ray that need no cluster: the options it refuses and the interpreter it picks
// (tests/ray/ray_tune_test.py runs it on a cluster).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/ray_jobs.h"
#include "test_support.h"
#include "tune/config_space.h"

namespace portcheck {
namespace {

const char* kOnlyIncore = R"(import pypto.language as pl

ROWS = 1024
COLS = 256
ROW_TILE = 32
TUNABLES = {"ROW_TILE": (16, 32, 64, 128)}


@pl.jit.incore
def exp_rows(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    for rb in pl.range(ROWS // ROW_TILE):
        t = pl.load(x, [rb * ROW_TILE, 0], [ROW_TILE, COLS])
        pl.store(pl.exp(t), [rb * ROW_TILE, 0], out)
    return out
)";

struct OnlyWorkspace {
  test::TempDir ws;
  OnlyWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("projects/p/pypto_src/golden.py", "RTOL = 1e-5\n");
    ws.write("projects/p/pypto_src/incore.py", kOnlyIncore);
    ws.write("pypto/python/pypto/__init__.py", "");
    ws.write("projects/p/pypto_src/FAKE_MODE", "ok\n");
  }
  test::CommandResult tune(const TuneOptions& t) {
    auto o = test::optionsIn(ws.path(), Format::Json);
    o.toolchain.pypto = (ws / "pypto").string();
    o.toolchain.python = test::fakeCompilePython();
    return test::runInProcess([&](const Io& io) { return runTune(o, t, {"projects/p"}, io); });
  }
};

TEST(TuneOnly, CompilesTheOneConfigurationEvenWhenTheScreenWouldPruneIt) {
  OnlyWorkspace w;
  TuneOptions t;
  t.only = "ROW_TILE=128";  // over Vec's capacity: a tune prunes it
  auto r = w.tune(t);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out)["projects"][0];
  ASSERT_EQ(j["configs"].size(), 1u);
  EXPECT_EQ(j["configs"][0]["values"]["ROW_TILE"], 128);
  EXPECT_EQ(j["configs"][0]["compile"]["status"], "ok") << j.dump();
  EXPECT_EQ(j["strategy"], "one configuration (--only)");
  // A job's one configuration is not the project's last tune (report's page keeps the driver's).
  EXPECT_FALSE(std::filesystem::exists(w.ws / ".port-check-cache/tune/p/a2a3.json"));
  t.only = "current";
  j = nlohmann::json::parse(w.tune(t).out)["projects"][0];
  EXPECT_EQ(j["configs"][0]["values"]["ROW_TILE"], 32);
  EXPECT_TRUE(j["configs"][0]["current"].get<bool>());
}

TEST(TuneOnly, AnUnknownKnobOrAMalformedValueIsExitTwo) {
  OnlyWorkspace w;
  TuneOptions t;
  t.only = "COL_TILE=8";
  auto r = w.tune(t);
  EXPECT_EQ(r.exit_code, kExitToolError);
  EXPECT_NE(r.err.find("--only names COL_TILE, which is not a knob of the port"), std::string::npos) << r.err;
  for (const char* bad : {"ROW_TILE", "ROW_TILE=x", "=4", "ROW_TILE=4,"}) {
    t.only = bad;
    r = w.tune(t);
    EXPECT_EQ(r.exit_code, kExitToolError) << bad;
    EXPECT_NE(r.err.find("--only takes NAME=INTEGER"), std::string::npos) << bad << ": " << r.err;
  }
  EXPECT_EQ(tune::parseConfig("A=1,B=-2"), (tune::Config{{"A", 1}, {"B", -2}}));
  EXPECT_EQ(tune::parseConfig("current"), tune::Config{});
}

TEST(TuneRay, RefusesWhatItCannotSendToACluster) {
  OnlyWorkspace w;
  for (auto set : {+[](TuneOptions& t) { t.compile = false; }, +[](TuneOptions& t) { t.apply = true; },
                   +[](TuneOptions& t) { t.only = "ROW_TILE=64"; }}) {
    TuneOptions t;
    t.ray = "auto";
    set(t);
    auto r = w.tune(t);
    EXPECT_EQ(r.exit_code, kExitToolError) << r.out;
    EXPECT_NE(r.err.find("--ray sends the compiles and runs to a Ray cluster"), std::string::npos) << r.err;
  }
  // No toolchain: nothing a worker could compile with.
  TuneOptions t;
  t.ray = "auto";
  auto o = test::optionsIn(w.ws.path(), Format::Json);
  o.toolchain.pypto = (w.ws / "nowhere").string();
  auto r = test::runInProcess([&](const Io& io) { return runTune(o, t, {"projects/p"}, io); });
  EXPECT_EQ(r.exit_code, kExitToolError);
  EXPECT_NE(r.err.find("--ray needs the PyPTO toolchain"), std::string::npos) << r.err;
}

TEST(TuneRay, ThePythonWithRayIsTheOptionThenTheVariableThenTheBootstrapVenvThenPython3) {
  test::TempDir home;
  auto env = [&](const char* var) -> std::function<const char*(const char*)> {
    return [&, var](const char* name) -> const char* {
      if (std::string(name) == "HOME") return home.path().c_str();
      if (var && std::string(name) == "PORTCHECK_RAY_PYTHON") return var;
      return nullptr;
    };
  };
  EXPECT_EQ(rayPython(std::string("/opt/py"), env("/env/py")), "/opt/py");
  EXPECT_EQ(rayPython(std::nullopt, env("/env/py")), "/env/py");
  EXPECT_EQ(rayPython(std::nullopt, env(nullptr)), "python3");
  home.write(".cache/port-check/ray-venv/bin/python", "");
  EXPECT_EQ(rayPython(std::nullopt, env(nullptr)), (home / ".cache/port-check/ray-venv/bin/python").string());
}

}  // namespace
}  // namespace portcheck
