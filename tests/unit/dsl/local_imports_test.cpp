// A loose program file is analysed with the modules it imports from disk, found the way Python finds
// them when the file runs as a script (dsl/local_imports.h): its folder, the folders it puts on
// sys.path, relative imports from the importing module's folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "core/source_file.h"
#include "dsl/local_imports.h"
#include "parse/parse_cache.h"
#include "test_support.h"

namespace portcheck::local_imports_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

dsl::LocalReader diskReader() {
  return [](const fs::path& p) -> std::optional<SourceFile> {
    ReadResult r = readSourceFile(p, p.generic_string());
    return r.file ? std::optional<SourceFile>(std::move(*r.file)) : std::nullopt;
  };
}

std::vector<std::string> names(const std::vector<dsl::LocalFile>& files, const fs::path& root) {
  std::vector<std::string> out;
  for (const dsl::LocalFile& f : files) out.push_back(f.path.lexically_relative(root).generic_string());
  return out;
}

dsl::LocalFile entry(const test::TempDir& ws, const std::string& rel) {
  fs::path p = (ws.path() / rel).lexically_normal();
  return {p, *readSourceFile(p, rel).file};
}

TEST(LocalImports, ReadsEveryImportStatementForm) {
  auto imps = dsl::importStatements(R"("""Docstring: from not_a_module import x"""
import os.path as osp, json
from config import (
    FLASH as M,  # the preset
    DECODE_BATCH,
)
from ..kernels.mlp import mlp_block
from . import sibling
try: import torch
except ImportError: pass
x = 1; from pkg \
    import sub
def f():
    from lazy import thing
)");
  std::vector<std::string> got;
  for (const auto& i : imps) {
    std::string names;
    for (const auto& n : i.names) names += (names.empty() ? "" : ",") + n;
    got.push_back(std::to_string(i.level) + ":" + i.module + ":" + names);
  }
  EXPECT_EQ(got, (std::vector<std::string>{"0:os.path:", "0:json:", "0:config:FLASH,DECODE_BATCH",
                                           "2:kernels.mlp:mlp_block", "1::sibling", "0:torch:", "0:pkg:sub",
                                           "0:lazy:thing"}));
}

// '#' inside a string (an escaped quote keeps the string open) starts no comment; a comment's brackets
// join no lines; an import in a docstring or a comment is none.
TEST(LocalImports, StringsAndCommentsDecideWhereLogicalLinesEnd) {
  auto imps = dsl::importStatements(R"py(s = "#" + 'it\'s # no comment'; from real_one import a
t = f(  # ) closes nothing here
    1,
)
from real_two import b
u = """
import fake_one
"""
v = 'x'  # from fake_two import c
from real_three import c
)py");
  std::vector<std::string> got;
  for (const auto& i : imps) got.push_back(i.module);
  EXPECT_EQ(got, (std::vector<std::string>{"real_one", "real_two", "real_three"}));
}

TEST(LocalImports, EvaluatesTheSysPathAdditionsAFileMakes) {
  fs::path dir = "/repo/models/x";
  auto added = dsl::sysPathAdditions(R"(
import os, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "golden"))
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))
_LIB = Path(__file__).resolve().parent / "lib"
sys.path.insert(0, str(_LIB))
sys.path.insert(0, str(model_dir))
)",
                                     dir);
  std::vector<std::string> got;
  for (const fs::path& p : added) got.push_back(p.generic_string());
  // model_dir is a parameter of some function: not knowable, left out.
  EXPECT_EQ(got, (std::vector<std::string>{"/repo/models", "/repo/golden", "/repo/models/x/kernels",
                                           "/repo/models/x/lib"}));
}

TEST(LocalImports, FollowsSiblingsPackagesRelativeImportsAndSysPathTransitively) {
  test::TempDir ws;
  ws.write("models/m/decode.py",
           "import sys\nfrom pathlib import Path\nsys.path.insert(0, str(Path(__file__).resolve().parent / 'extra'))\n"
           "from config import FLASH as M\nfrom kernels import mlp\nimport helper\nimport torch\n");
  ws.write("models/m/config.py", "from dataclasses import dataclass\n");
  ws.write("models/m/kernels/__init__.py", "");
  ws.write("models/m/kernels/mlp.py", "from ..config import FLASH\nfrom .act import silu\nfrom config import X\n");
  ws.write("models/m/kernels/act.py", "x = 1\n");
  ws.write("models/m/extra/helper.py", "import config\n");
  auto found = dsl::importedLocalFiles({entry(ws, "models/m/decode.py")}, diskReader());
  EXPECT_EQ(names(found, ws.path()),
            (std::vector<std::string>{"models/m/config.py", "models/m/kernels/__init__.py", "models/m/kernels/mlp.py",
                                      "models/m/extra/helper.py", "models/m/kernels/act.py"}));
}

TEST(LocalImports, StopsAtTheLimitAndNeverReadsAModuleTwice) {
  test::TempDir ws;
  std::string chain;
  for (int i = 0; i < 10; ++i) ws.write("p/m" + std::to_string(i) + ".py", "import m" + std::to_string(i + 1) + "\nimport main\n");
  ws.write("p/main.py", "import m0\n");
  auto all = dsl::importedLocalFiles({entry(ws, "p/main.py")}, diskReader());
  EXPECT_EQ(all.size(), 10u);  // m0..m9, main itself not again
  auto capped = dsl::importedLocalFiles({entry(ws, "p/main.py")}, diskReader(), 3);
  EXPECT_EQ(capped.size(), 3u);
  // Unreadable (binary) modules are skipped, not fatal.
  ws.write("q/main.py", "import blob\n");
  ws.write("q/blob.py", std::string("\0\x01\x02binary", 9));
  EXPECT_TRUE(dsl::importedLocalFiles({entry(ws, "q/main.py")}, diskReader()).empty());
}

// Within a run (a RunCacheScope) whether a path is a file is asked of the file system once: every file of a
// model folder looks for the same modules in the same folders. A new run, or no run, asks again.
TEST(LocalImports, ARunAsksTheFileSystemAboutAPathOnce) {
  test::TempDir ws;
  ws.write("p/main.py", "import late\n");
  {
    RunCacheScope run;
    EXPECT_TRUE(dsl::importedLocalFiles({entry(ws, "p/main.py")}, diskReader()).empty());
    ws.write("p/late.py", "x = 1\n");  // appears mid-run: the run keeps its first answer
    EXPECT_TRUE(dsl::importedLocalFiles({entry(ws, "p/main.py")}, diskReader()).empty());
  }
  EXPECT_EQ(names(dsl::importedLocalFiles({entry(ws, "p/main.py")}, diskReader()), ws.path()),
            std::vector<std::string>{"p/late.py"});
  RunCacheScope next;
  EXPECT_EQ(dsl::importedLocalFiles({entry(ws, "p/main.py")}, diskReader()).size(), 1u);
}

// A model folder as pypto-lib writes it, compiled by the real compiler (tests/fixtures/corpus/
// multi_module/compiled/): lint of model.py alone estimates the kernels of the modules it imports,
// named as the compiler names them, and reports nothing located in those modules.
TEST(LocalImports, LintOfAModelFileCoversTheKernelsOfItsImportedModules) {
  test::TempDir ws;
  for (const char* f : {"config.py", "blocks.py", "model.py"})
    ws.write(std::string("m/") + f, test::readFile(fs::path(test::fixturesDir()) / "corpus/multi_module" / f));
  CommonOptions o = test::optionsIn(ws.path(), Format::Json);
  auto r = test::runInProcess([&](const Io& io) { return runLint(o, {"m/model.py"}, io); });
  json j = json::parse(r.out);
  std::set<std::string> kernels;
  for (const json& row : j["sram"]) kernels.insert(row["function"].get<std::string>() + "/" + row["space"].get<std::string>());
  EXPECT_TRUE(kernels.count("scale_rows/Vec")) << j["sram"];
  EXPECT_TRUE(kernels.count("scale_rows_0/Vec")) << j["sram"];
  EXPECT_TRUE(kernels.count("proj/Acc")) << j["sram"];
  for (const json& d : j["diagnostics"]) EXPECT_EQ(d["file"], "m/model.py") << d;
  // blocks.py linted itself reports its own findings and its kernel once (no entry calls it twice there).
  auto b = test::runInProcess([&](const Io& io) { return runLint(o, {"m/blocks.py"}, io); });
  json jb = json::parse(b.out);
  int rows = 0;
  for (const json& row : jb["sram"]) rows += row["function"] == "scale_rows";
  EXPECT_EQ(rows, 1) << jb["sram"];
}

// A folder of such files is one unit (they import one another): every file's findings once, each
// kernel's row once, the same as linting the files one by one.
TEST(LocalImports, AModelFolderIsLintedAsOneProgramWithEachFindingOnce) {
  test::TempDir ws;
  for (const char* f : {"config.py", "blocks.py", "model.py"})
    ws.write(std::string("m/") + f, test::readFile(fs::path(test::fixturesDir()) / "corpus/multi_module" / f));
  ws.write("m/other.py", "import pypto.language as pl\nfrom blocks import D\n\n\n@pl.jit\ndef other(x: pl.Tensor[[16, D], pl.FP32]):\n    with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"o\"):\n        t = pl.load(x, [0, 0], [16, D])\n        pl.store(pl.exp(t), [0, 0], x)\n    return x\n");
  CommonOptions o = test::optionsIn(ws.path(), Format::Json);
  auto folder = json::parse(test::runInProcess([&](const Io& io) { return runLint(o, {"m"}, io); }).out);
  std::multiset<std::string> findings, rows;
  for (const json& d : folder["diagnostics"])
    findings.insert(d["rule"].get<std::string>() + "@" + d["file"].get<std::string>() + ":" + std::to_string(d["line"].get<int>()));
  for (const json& r : folder["sram"]) rows.insert(r["function"].get<std::string>() + "/" + r["space"].get<std::string>());
  for (const std::string& f : findings) EXPECT_EQ(findings.count(f), 1u) << f;
  for (const std::string& r : rows) EXPECT_EQ(rows.count(r), 1u) << r;
  EXPECT_EQ(rows.count("o/Vec"), 1u);
  EXPECT_EQ(rows.count("scale_rows_0/Vec"), 1u);
  // Per file, the same findings.
  std::multiset<std::string> one_by_one;
  for (const char* f : {"m/blocks.py", "m/config.py", "m/model.py", "m/other.py"}) {
    json alone = json::parse(test::runInProcess([&](const Io& io) { return runLint(o, {f}, io); }).out);
    for (const json& d : alone["diagnostics"])
      one_by_one.insert(d["rule"].get<std::string>() + "@" + d["file"].get<std::string>() + ":" + std::to_string(d["line"].get<int>()));
  }
  EXPECT_EQ(findings, one_by_one);
}

}  // namespace
}  // namespace portcheck::local_imports_test
