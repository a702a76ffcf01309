// A port whose kernels are pypto-lib blocks imported through sys.path (projects/*/pypto_src/incore.py
// puts pypto-lib/<block> on sys.path and does `from <block> import f`): the block's file joins the
// port's unit, so calls resolve, the estimator covers the block's kernels under the port's name, and
// the advice sees them; the block's own findings stay with `port-check lint pypto-lib/`.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "dsl/dsl_model.h"
#include "dsl/library_imports.h"
#include "lint/python_unit_support.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using test::sourceOf;

std::vector<std::string> paths(const std::vector<SourceFile>& files) {
  std::vector<std::string> out;
  for (const SourceFile& f : files) out.push_back(f.path);
  return out;
}

TEST(LibraryImports, ReadsTheTopLevelModulesOfImportStatements) {
  auto m = dsl::importedModules(R"("""Docstring that mentions
from not_a_module import x
"""
import sys, os.path as osp
from pathlib import Path
from __future__ import annotations
from . import sibling
from .incore import f
import pypto.language as pl  # the DSL
from matmul_bt import matmul_bt  # noqa: E402,F401
try:
    from swiglu_gate_up import (
        gate_up_swiglu,
    )
except ImportError:
    pass
def later():
    import block_testing
x = "from quoted import nothing"
)");
  EXPECT_EQ(m, (std::vector<std::string>{"sys", "os.path", "pathlib", "pypto.language", "matmul_bt", "swiglu_gate_up",
                                         "block_testing"}));
}

const char* kBlock = R"(import pypto.language as pl


@pl.jit.incore
def scale_by_three(src: pl.Tensor[[128, 128], pl.FP32], dst: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    t = pl.load(src, [0, 0], [128, 128])
    scaled = pl.mul(t, 3.0)
    pl.store(scaled, [0, 0], dst)
    return dst


@pl.jit.incore
def add_bias(
    src: pl.Tensor[[128, 128], pl.FP32],
    bias: pl.Tensor[[128, 128], pl.FP32],
    dst: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    t = pl.load(src, [0, 0], [128, 128])
    b = pl.load(bias, [0, 0], [128, 128])
    summed = pl.add(t, b)
    pl.store(summed, [0, 0], dst)
    return dst


@pl.jit.incore
def narrow_copy(src: pl.Tensor[[64, 64], pl.FP32], dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    t = pl.load(src, [0, 0], [64, 64])
    pl.store(t, [0, 0], dst)
    return dst
)";

// The port as the real ones are written: incore.py puts the block folder on sys.path relative to its
// own file and re-exports the block's kernels; orchestration.py imports them from incore.
struct LibraryPort {
  test::TempDir ws;
  LibraryPort() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("pypto-lib/scale_bias/scale_bias.py", kBlock);
    ws.write("pypto-lib/helpers.py", "import pypto.language as pl\nfrom scale_bias import add_bias\n");
    ws.write("projects/port/pypto_src/golden.py", "RTOL = 1e-5\n");
    ws.write("projects/port/pypto_src/incore.py", R"(import sys
from pathlib import Path

_PYPTO_LIB = Path(__file__).resolve().parents[3] / "pypto-lib"
if str(_PYPTO_LIB / "scale_bias") not in sys.path:
    sys.path.insert(0, str(_PYPTO_LIB / "scale_bias"))

from scale_bias import add_bias, scale_by_three  # noqa: E402,F401
)");
    ws.write("projects/port/pypto_src/orchestration.py", R"(import pypto.language as pl
from incore import add_bias, scale_by_three


@pl.jit
def scale_bias(
    x: pl.Tensor[[128, 128], pl.FP32],
    bias: pl.Tensor[[128, 128], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    scaled = pl.create_tensor([128, 128], dtype=pl.FP32)
    scaled = scale_by_three(x, scaled)
    y = add_bias(scaled, bias, y)
    return y
)");
  }
  std::vector<SourceFile> unit() const {
    std::vector<SourceFile> out;
    for (const char* name : {"golden.py", "incore.py", "orchestration.py"})
      out.push_back(sourceOf(std::string("projects/port/pypto_src/") + name,
                           test::readFile(ws / (std::string("projects/port/pypto_src/") + name))));
    return out;
  }
  test::CommandResult run(const std::function<int(const CommonOptions&, const Io&)>& fn) {
    CommonOptions o = test::optionsIn(ws.path(), Format::Json);
    return test::runInProcess([&](const Io& io) { return fn(o, io); });
  }
};

TEST(LibraryImports, FindsTheBlockFileAModuleNamesInAPyptoLibFolder) {
  LibraryPort p;
  auto found = dsl::importedLibraryFiles(p.ws.path(), p.unit());
  EXPECT_EQ(paths(found), (std::vector<std::string>{"pypto-lib/scale_bias/scale_bias.py"}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].text, kBlock);
}

TEST(LibraryImports, ATopLevelLibraryModuleAndItsOwnImportsAreFollowed) {
  LibraryPort p;
  std::vector<SourceFile> unit = {sourceOf("projects/q/pypto_src/k.py", "import helpers\n")};
  auto found = dsl::importedLibraryFiles(p.ws.path(), unit);
  EXPECT_EQ(paths(found), (std::vector<std::string>{"pypto-lib/helpers.py", "pypto-lib/scale_bias/scale_bias.py"}));
}

TEST(LibraryImports, ModulesTheUnitProvidesItselfAreNotLookedUp) {
  LibraryPort p;
  std::vector<SourceFile> unit = p.unit();
  unit.push_back(sourceOf("projects/port/pypto_src/scale_bias.py", "x = 1\n"));  // a sibling of that name wins
  EXPECT_TRUE(dsl::importedLibraryFiles(p.ws.path(), unit).empty());
  test::TempDir empty;  // no pypto-lib/ at all
  EXPECT_TRUE(dsl::importedLibraryFiles(empty.path(), p.unit()).empty());
}

TEST(LibraryImports, AnInMemoryLibraryIsSearchedInItsFolderOrder) {
  // What the hook builds from the staged pypto-lib/: folders and a reader, no disk.
  std::vector<std::string> asked;
  dsl::LibraryFolder staged;
  staged.folders = {"a_block", "scale_bias"};
  staged.read = [&](const std::string& rel) -> std::optional<SourceFile> {
    asked.push_back(rel);
    if (rel == "scale_bias/scale_bias.py") return sourceOf("pypto-lib/" + rel, kBlock);
    return std::nullopt;
  };
  std::vector<SourceFile> unit = {sourceOf("projects/q/pypto_src/k.py", "from scale_bias import add_bias\n")};
  auto found = dsl::importedLibraryFiles(staged, unit);
  EXPECT_EQ(paths(found), (std::vector<std::string>{"pypto-lib/scale_bias/scale_bias.py"}));
  // Each module at the top of pypto-lib/, then in each folder; the block's own imports follow.
  EXPECT_EQ(asked, (std::vector<std::string>{"scale_bias.py", "a_block/scale_bias.py", "scale_bias/scale_bias.py",
                                             "pypto/language.py", "a_block/pypto/language.py",
                                             "scale_bias/pypto/language.py"}));
  EXPECT_TRUE(dsl::importedLibraryFiles(dsl::LibraryFolder{}, unit).empty());  // no pypto-lib/ staged
}

TEST(LibraryImports, CallsResolveThroughTheReexportToTheBlocksFunction) {
  LibraryPort p;
  std::vector<SourceFile> files = p.unit();
  for (SourceFile& f : dsl::importedLibraryFiles(p.ws.path(), files)) files.push_back(std::move(f));
  dsl::ProgramModel pm = dsl::buildProgramModel(files);
  ASSERT_EQ(pm.files.size(), 4u);
  const dsl::FileModel& orch = pm.files[2];
  int entry = orch.functionIndex("scale_bias");
  ASSERT_GE(entry, 0);
  std::set<std::string> callees;
  for (const dsl::Expr& e : orch.functions[static_cast<std::size_t>(entry)].exprs)
    if (e.kind == dsl::ExprKind::Call && e.callee_file >= 0) {
      EXPECT_EQ(e.callee_file, 3) << e.name << " resolves to " << pm.files[static_cast<std::size_t>(e.callee_file)].path;
      callees.insert(pm.function({e.callee_file, e.callee_function})->name);
    }
  EXPECT_EQ(callees, (std::set<std::string>{"scale_by_three", "add_bias"}));
}

TEST(LibraryImports, LintEstimatesTheImportedKernelsUnderThePortsNameAndAdvisesOnThem) {
  LibraryPort p;
  auto r = p.run([](const CommonOptions& o, const Io& io) { return runLint(o, {"projects/port"}, io); });
  json j = json::parse(r.out);
  std::set<std::string> kernels;
  for (const json& row : j["sram"]) {
    EXPECT_EQ(row["project"], "port") << row;
    EXPECT_TRUE(row["estimate"].is_number()) << row;
    kernels.insert(row["function"].get<std::string>());
  }
  EXPECT_TRUE(kernels.count("scale_by_three")) << j["sram"];
  EXPECT_TRUE(kernels.count("add_bias")) << j["sram"];
  bool fuse = false;
  for (const json& d : j["diagnostics"]) {
    // The block's own findings (e.g. DSL117 on narrow_copy's 256-byte rows) belong to its own lint.
    EXPECT_EQ(d["file"].get<std::string>().rfind("pypto-lib/", 0), std::string::npos) << d;
    if (d["rule"] == "FUSE001") {
      fuse = true;
      EXPECT_EQ(d["file"], "projects/port/pypto_src/orchestration.py");
      EXPECT_NE(d["message"].get<std::string>().find("fuse 'scale_by_three' and 'add_bias'"), std::string::npos) << d;
    }
  }
  EXPECT_TRUE(fuse) << r.out;
  // The files checked are still the port's own.
  EXPECT_EQ(j["run"]["files"].size(), 3u) << j["run"]["files"];

  auto lib = p.run([](const CommonOptions& o, const Io& io) { return runLint(o, {"pypto-lib/scale_bias/scale_bias.py"}, io); });
  EXPECT_NE(lib.out.find("\"DSL117\""), std::string::npos) << "the block's own lint keeps its findings\n" << lib.out;
}

// A block finding that means wrong numbers (DSL119: a column window written through dense strides) is
// the port's too, located in the block's file; the block's other findings stay with its own lint.
TEST(LibraryImports, LintOfThePortReportsTheBlocksFindingsThatMeanWrongNumbers) {
  LibraryPort p;
  p.ws.write("pypto-lib/scale_bias/scale_bias.py", std::string(kBlock) + R"(

@pl.jit.inline
def halve_columns(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Tensor[[64, 256], pl.FP32]):
    for h in pl.parallel(2):
        y_block = pl.slice(y, [64, 128], [0, h * 128])
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, h * 128], [64, 128])
            y_block = pl.assemble(y_block, pl.mul(t, 0.5), [0, 0])
    return y
)");
  auto r = p.run([](const CommonOptions& o, const Io& io) { return runLint(o, {"projects/port"}, io); });
  json j = json::parse(r.out);
  int window = 0;
  for (const json& d : j["diagnostics"]) {
    if (d["file"].get<std::string>().rfind("pypto-lib/", 0) != 0) continue;
    EXPECT_EQ(d["rule"], "DSL119") << "only the wrong-numbers findings of a block are the port's: " << d;
    if (d["rule"] == "DSL119") {
      ++window;
      EXPECT_EQ(d["file"], "pypto-lib/scale_bias/scale_bias.py");
      EXPECT_EQ(d["severity"], "error");
    }
  }
  EXPECT_EQ(window, 1) << r.out;
  EXPECT_NE(r.exit_code, 0) << "an error in a block the port runs fails the port's lint";
}

TEST(LibraryImports, ReportDrawsTheImportedKernelsInThePortsTaskGraph) {
  LibraryPort p;
  ReportOptions ro;
  ro.html = "page.html";
  auto r = p.run([&](const CommonOptions& o, const Io& io) { return runReport(o, ro, {"projects/port"}, io); });
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::string page = test::readFile(p.ws / "page.html");
  EXPECT_NE(page.find("data-kernel=\"scale_by_three\""), std::string::npos);
  EXPECT_NE(page.find("data-kernel=\"add_bias\""), std::string::npos);
  EXPECT_NE(page.find("class=\"edge\" data-from=\"0\" data-to=\"1\""), std::string::npos);
}

}  // namespace
}  // namespace portcheck
