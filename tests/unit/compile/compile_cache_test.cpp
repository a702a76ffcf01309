// The compile cache: hit, miss on any source change, corrupt entries, --no-cache, parallel isolation.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <set>

#include "compiler/compile_cache.h"
#include "compiler/compile_stage.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct CacheWorkspace {
  test::TempDir ws;
  DriverSettings settings;

  CacheWorkspace() {
    ws.write("pypto/python/pypto/__init__.py", "");
    settings.toolchain.found = true;
    settings.toolchain.pypto_root = ws / "pypto";
    settings.toolchain.revision = "fake123";
    settings.toolchain.python = test::fakeCompilePython();
    settings.workspace_root = ws.path();
    settings.cache_root = ws / ".port-check-cache";
    settings.timeout = 5s;
    settings.environment = {{"PATH", "/usr/bin:/bin"}};
  }
  CompileTarget project(const std::string& name, const std::string& mode = "ok") {
    ws.write("projects/" + name + "/pypto_src/FAKE_MODE", mode + "\n");
    ws.write("projects/" + name + "/pypto_src/golden.py", "x = 1\n");
    CompileTarget t;
    t.name = name;
    t.source_root = ws / ("projects/" + name + "/pypto_src");
    t.source_root_display = "projects/" + name + "/pypto_src";
    return t;
  }
  // How often the fake compiler actually ran for a project.
  int runs(const std::string& name) {
    std::string log = test::readFile(ws / ("projects/" + name + "/runs.log"));
    return static_cast<int>(std::count(log.begin(), log.end(), '\n'));
  }
  CompileStageResult stage(const std::vector<CompileTarget>& targets, bool use_cache = true, int jobs = 1) {
    CompileStageOptions o;
    o.use_cache = use_cache;
    o.jobs = jobs;
    return runCompileStage(targets, Platform::A2A3, settings, o);
  }
};

TEST(CompileCache, TheSameSourcesReplayTheLastResultWithoutCompiling) {
  CacheWorkspace c;
  auto t = c.project("softmax");
  auto first = c.stage({t});
  ASSERT_EQ(first.targets.size(), 1u);
  EXPECT_FALSE(first.targets[0].cached);
  EXPECT_EQ(c.runs("softmax"), 1);

  auto start = std::chrono::steady_clock::now();
  auto second = c.stage({t});
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(second.targets[0].cached);
  EXPECT_EQ(second.targets[0].status, "ok");
  EXPECT_EQ(c.runs("softmax"), 1) << "a hit does not start the compiler";
  EXPECT_LT(took, 50ms) << "replay took " << std::chrono::duration<double, std::milli>(took).count() << " ms";
  EXPECT_NE(second.detail.find("1 replayed from cache"), std::string::npos) << second.detail;
}

TEST(CompileCache, AnyChangedOrAddedSourceFileIsAMiss) {
  CacheWorkspace c;
  auto t = c.project("p");
  c.stage({t});
  c.ws.write("projects/p/pypto_src/golden.py", "x = 2\n");
  EXPECT_FALSE(c.stage({t}).targets[0].cached);
  c.ws.write("projects/p/pypto_src/kernels/incore.py", "y = 1\n");
  EXPECT_FALSE(c.stage({t}).targets[0].cached);
  EXPECT_TRUE(c.stage({t}).targets[0].cached);
  // Bytecode caches and build output are not sources.
  c.ws.write("projects/p/pypto_src/__pycache__/golden.cpython-311.pyc", "junk");
  c.ws.write("projects/p/pypto_src/build_output/x.txt", "junk");
  EXPECT_TRUE(c.stage({t}).targets[0].cached);
  EXPECT_EQ(c.runs("p"), 3);
}

TEST(CompileCache, PlatformToolchainAndAnalysisOptionsAreInTheKey) {
  CacheWorkspace c;
  auto t = c.project("p");
  std::string base = compileCacheKey(t, Platform::A2A3, c.settings, {});
  EXPECT_EQ(base, compileCacheKey(t, Platform::A2A3, c.settings, {}));
  EXPECT_NE(base, compileCacheKey(t, Platform::A5, c.settings, {}));
  CompileAnalysisOptions low;
  low.low_usage_percent = 10;
  EXPECT_NE(base, compileCacheKey(t, Platform::A2A3, c.settings, low));
  DriverSettings other = c.settings;
  other.toolchain.revision = "other456";
  EXPECT_NE(base, compileCacheKey(t, Platform::A2A3, other, {}));
  other = c.settings;
  other.environment["PTOAS_ROOT"] = "/opt/ptoas";
  EXPECT_NE(base, compileCacheKey(t, Platform::A2A3, other, {}));
  other = c.settings;
  other.environment["PYTHONPATH"] = "/src/pypto-lib";  // which golden/ harness and helpers a file imports
  EXPECT_NE(base, compileCacheKey(t, Platform::A2A3, other, {}));
  other = c.settings;
  other.toolchain.ptoas = "/usr/bin/true";
  EXPECT_NE(base, compileCacheKey(t, Platform::A2A3, other, {}));
}

TEST(CompileCache, ACorruptEntryIsAMissAndIsRewritten) {
  CacheWorkspace c;
  auto t = c.project("p");
  c.stage({t});
  std::string key = compileCacheKey(t, Platform::A2A3, c.settings, {});
  fs::path entry = c.settings.cache_root / "results" / key.substr(0, 2) / (key + ".json");
  ASSERT_TRUE(fs::exists(entry));
  for (const char* junk : {"{ not json", "", "{\"schema\": 1, \"key\": \"other\"}", "{\"schema\": 1}"}) {
    std::ofstream(entry, std::ios::trunc) << junk;
    EXPECT_FALSE(loadCachedCompile(c.settings.cache_root, c.settings.workspace_root, key)) << junk;
    auto r = c.stage({t});
    EXPECT_FALSE(r.targets[0].cached) << junk;
    EXPECT_TRUE(loadCachedCompile(c.settings.cache_root, c.settings.workspace_root, key)) << "rewritten after " << junk;
  }
  EXPECT_EQ(c.runs("p"), 5);
}

TEST(CompileCache, RoundTripsDiagnosticsAndSramRows) {
  test::TempDir dir;
  CompileOutcome o;
  Diagnostic d;
  d.rule = "COMP002";
  d.severity = Severity::Error;
  d.source = Stage::Compiler;
  d.file = "projects/p/pypto_src/kernels.py";
  d.line = 14;
  d.column = 5;
  d.message = "Vec buffer usage (262144 bytes) exceeds platform limit (188416 bytes)";
  d.hint = "split the tile";
  d.doc = "docs/rules.md#comp002";
  d.sram = SramFigures{"f_incore_0", "Vec", 262144, 188416};
  d.notes.push_back({"projects/p/pypto_src/kernels.py", 12, 9, "largest tile"});
  o.diagnostics.push_back(d);
  SramRow row;
  row.project = "p";
  row.function = "f_incore_0";
  row.core = "AIV";
  row.space = "Vec";
  row.actual = 65536;
  row.capacity = 188416;
  row.tiles = 4;
  row.largest.push_back({"tile_a", 32768, "projects/p/pypto_src/kernels.py", 15});
  o.sram.push_back(row);
  o.succeeded = false;
  o.status = "compile_error";
  o.program = "f";
  o.ptoas = "skipped";
  std::string error;
  ASSERT_TRUE(storeCachedCompile(dir.path(), {}, "abcdef", o, error)) << error;
  auto back = loadCachedCompile(dir.path(), {}, "abcdef");
  ASSERT_TRUE(back);
  ASSERT_EQ(back->diagnostics.size(), 1u);
  const Diagnostic& b = back->diagnostics[0];
  EXPECT_EQ(b.rule, "COMP002");
  EXPECT_EQ(b.line, 14);
  EXPECT_EQ(b.column, 5);
  EXPECT_EQ(b.message, d.message);
  ASSERT_TRUE(b.sram);
  EXPECT_EQ(b.sram->used, 262144);
  ASSERT_EQ(b.notes.size(), 1u);
  EXPECT_EQ(b.notes[0].line, 12);
  ASSERT_EQ(back->sram.size(), 1u);
  EXPECT_EQ(back->sram[0].actual, 65536);
  EXPECT_FALSE(back->sram[0].estimate);
  EXPECT_EQ(back->sram[0].largest[0].name, "tile_a");
  EXPECT_EQ(back->status, "compile_error");
  // No temporary files are left behind.
  int files = 0;
  for (auto& e : fs::recursive_directory_iterator(dir.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST(CompileCache, TwoCheckoutsAtDifferentPathsShareKeysAndEntries) {
  // One cache (a --cache-dir, or the shared tier) serving two checkouts of the same project.
  test::TempDir shared;
  CacheWorkspace one, two;
  for (CacheWorkspace* c : {&one, &two}) {
    c->settings.cache_root = shared / "cache";
    c->settings.toolchain.pypto_root = c->ws / "pypto";  // a toolchain inside each checkout
    c->settings.environment["PYTHONPATH"] = (c->ws / "pypto-lib").string() + ":" + (shared / "elsewhere").string();
  }
  auto t1 = one.project("p"), t2 = two.project("p");
  EXPECT_EQ(compileCacheKey(t1, Platform::A2A3, one.settings, {}), compileCacheKey(t2, Platform::A2A3, two.settings, {}));
  EXPECT_EQ(compileWorkDir(one.settings, t1, Platform::A2A3), compileWorkDir(two.settings, t2, Platform::A2A3));
  EXPECT_FALSE(one.stage({t1}).targets[0].cached);
  EXPECT_TRUE(two.stage({t2}).targets[0].cached) << "the other checkout's compile is replayed";
  EXPECT_EQ(two.runs("p"), 0);
  // What differs in content is still a miss.
  two.ws.write("projects/p/pypto_src/golden.py", "x = 3\n");
  EXPECT_FALSE(two.stage({t2}).targets[0].cached);
  EXPECT_EQ(two.runs("p"), 1);
}

TEST(CompileCache, AnEntryHoldsTheWorkspaceAsATokenAndReadsBackUnderTheReadersRoot) {
  test::TempDir cache, writer, reader;
  CompileOutcome o;
  Diagnostic d;
  d.rule = "COMP002";
  d.file = (writer / "projects/p/pypto_src/kernels.py").string();
  d.message = "see " + (writer / "projects/p/build/out.pto").string();
  o.diagnostics.push_back(d);
  o.out_dir = (writer / ".port-check-cache/compile/p-1/a2a3/out").string();
  o.status = "ok";
  std::string error;
  ASSERT_TRUE(storeCachedCompile(cache.path(), writer.path(), "abcdef", o, error)) << error;
  const std::string stored = test::readFile(cache / "results/ab/abcdef.json");
  EXPECT_EQ(stored.find(writer.path().string()), std::string::npos) << stored;
  auto back = loadCachedCompile(cache.path(), reader.path(), "abcdef");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->out_dir, (reader / ".port-check-cache/compile/p-1/a2a3/out").string());
  ASSERT_EQ(back->diagnostics.size(), 1u);
  EXPECT_EQ(back->diagnostics[0].file, (reader / "projects/p/pypto_src/kernels.py").string());
  EXPECT_EQ(back->diagnostics[0].message, "see " + (reader / "projects/p/build/out.pto").string());
}

TEST(CompileCache, NoCacheAlwaysCompilesButStillStores) {
  CacheWorkspace c;
  auto t = c.project("p");
  c.stage({t}, /*use_cache=*/false);
  c.stage({t}, /*use_cache=*/false);
  EXPECT_EQ(c.runs("p"), 2);
  EXPECT_TRUE(c.stage({t}).targets[0].cached);
}

TEST(CompileCache, FailuresOfTheProcessAreNeverCached) {
  CacheWorkspace c;
  auto t = c.project("p", "crash");
  c.stage({t});
  EXPECT_FALSE(c.stage({t}).targets[0].cached);
}

TEST(CompileStage, ParallelJobsCompileEveryProjectInItsOwnFolder) {
  CacheWorkspace c;
  std::vector<CompileTarget> targets;
  for (const char* name : {"a", "b", "c", "d"}) targets.push_back(c.project(name));
  targets.push_back(c.project("e", "crash"));
  auto r = c.stage(targets, /*use_cache=*/true, /*jobs=*/3);
  ASSERT_EQ(r.targets.size(), 5u);
  for (const char* name : {"a", "b", "c", "d"}) EXPECT_EQ(c.runs(name), 1) << name;
  std::set<fs::path> dirs;
  for (const auto& t : targets) dirs.insert(compileWorkDir(c.settings, t, Platform::A2A3));
  EXPECT_EQ(dirs.size(), 5u);
  // Findings come back in target order, whatever order the workers finished in.
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].rule, "COMP902");
  EXPECT_NE(r.detail.find("5 programs on a2a3: 4 compiled, 1 failed"), std::string::npos) << r.detail;
}

}  // namespace
}  // namespace portcheck
