#pragma once
// A workspace with the ledger fixture project projects/rows (tests/fixtures/ledger), checked without a
// toolchain (lint only), for the tests that record attempts through the commands.
#include <filesystem>

#include "app/commands.h"
#include "test_support.h"

namespace portcheck::test {

namespace fs = std::filesystem;

struct LedgerWorkspace {
  TempDir dir;
  LedgerWorkspace() {
    dir.write(".git/HEAD", "ref: refs/heads/main\n");
    fs::create_directories(dir / "projects");
    fs::copy(fixturesDir() + "/ledger/rows", dir / "projects/rows", fs::copy_options::recursive);
  }
  CommonOptions options(Format format = Format::Text) const {
    CommonOptions o = optionsIn(dir.path(), format);
    o.toolchain.pypto = dir / "no-pypto";  // no compiler: check runs lint only
    o.kernel_compile.enabled = false;
    return o;
  }
  CommandResult check(Format format = Format::Text, CompileOptions compile = {},
                      const std::string& project = "projects/rows") const {
    return runInProcess([&](const Io& io) { return runCheck(options(format), {project}, io, compile); });
  }
  CommandResult ledger(Format format = Format::Text, bool markdown = false,
                       const std::string& project = "projects/rows") const {
    LedgerOptions lo;
    lo.project = project;
    lo.markdown = markdown;
    return runInProcess([&](const Io& io) { return runLedger(options(format), lo, io); });
  }
  void fix() const { fs::copy_file(fixturesDir() + "/ledger/incore_fixed.py", dir / "projects/rows/pypto_src/incore.py",
                                   fs::copy_options::overwrite_existing); }
  fs::path ledgerFile() const { return dir / "projects/rows/.port-check/ledger.jsonl"; }
};

}  // namespace portcheck::test
