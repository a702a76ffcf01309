// Mutants for the contract's mutation check (GOLD024): made from a real port, one line each, still
// parseable, spread over the port; and verify --mutants through the binary with the fake interpreter.
#include <gtest/gtest.h>

#include <set>

#include "golden/mutants.h"
#include "golden/run_workspace.h"
#include "parse/syntax_tree.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

bool says(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Mutants, ARealPortGetsStoreAndOperationMutantsThatStillParse) {
  const fs::path src = fs::path(test::sourceDir()) / "projects/row_softmax_naive/pypto_src";
  std::vector<Mutant> all = portMutants(src);
  ASSERT_FALSE(all.empty());
  std::set<std::string> kinds;
  for (const Mutant& m : all) {
    kinds.insert(m.kind);
    EXPECT_NE(m.file, "golden.py");
    EXPECT_NE(m.before, m.after) << m.describe();
    std::string original = test::readFile((src / m.file).string());
    EXPECT_NE(original, m.text) << m.describe();
    SyntaxTree t = SyntaxTree::parse(Language::Python, m.text);
    EXPECT_FALSE(t.hasError()) << m.describe();
  }
  EXPECT_TRUE(kinds.count("drop-store")) << "the naive softmax stores every intermediate";
  EXPECT_TRUE(kinds.count("swap-op"));
}

TEST(Mutants, AStoreBoundToANameKeepsTheNameBoundToTheUnwrittenTarget) {
  test::TempDir d;
  d.write("pypto_src/incore.py", "def k(x, out):\n    t = pl.load(x, [0, 0], [8, 8])\n    out = pl.store(pl.add(t, t), [0, 0], out)\n    return out\n");
  d.write("pypto_src/golden.py", "y = pl.store(a, b, c)\n");
  std::vector<Mutant> all = portMutants(d / "pypto_src");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].kind, "drop-store");
  EXPECT_EQ(all[0].after, "out = out");
  EXPECT_EQ(all[0].line, 3);
  EXPECT_EQ(all[1].kind, "swap-op");
  EXPECT_EQ(all[1].after, "out = pl.store(pl.sub(t, t), [0, 0], out)");
  EXPECT_EQ(all[0].describe(), "incore.py:3 drop-store: `out = pl.store(pl.add(t, t), [0, 0], out)` -> `out = out`");
}

TEST(Mutants, ALimitSpreadsThePickOverThePortFirstAndLastIncluded) {
  std::vector<Mutant> all(10);
  for (int i = 0; i < 10; ++i) all[i].line = i + 1;
  std::vector<Mutant> three = pickMutants(all, 3);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0].line, 1);
  EXPECT_EQ(three[1].line, 5);
  EXPECT_EQ(three[2].line, 10);
  EXPECT_EQ(pickMutants(all, 20).size(), 10u);
}

TEST(Mutants, TheCopyHasTheMutatedFileAndNotTheLedger) {
  test::TempDir d;
  d.write("p/pypto_src/incore.py", "pl.store(t, [0, 0], out)\n");
  d.write("p/original/p.py", "x = 1\n");
  d.write("p/.port-check/ledger.jsonl", "{}\n");
  std::vector<Mutant> all = portMutants(d / "p/pypto_src");
  ASSERT_EQ(all.size(), 1u);
  std::string error;
  ASSERT_TRUE(writeMutantProject(d / "p", all[0], d / "m", error)) << error;
  EXPECT_EQ(test::readFile((d / "m/pypto_src/incore.py").string()), "pass\n");
  EXPECT_TRUE(fs::exists(d / "m/original/p.py"));
  EXPECT_FALSE(fs::exists(d / "m/.port-check"));
}

// Through the binary: the fake interpreter answers each mutant as it answers the port (FAKE_RUN is
// copied with it), so a passing port's mutants pass too: GOLD024 on each changed line.
TEST(VerifyMutants, MutantsThatPassTheContractAreGOLD024AtTheLineTheyChanged) {
  test::CliWorkspace c;
  c.project("softmax", "contract_copies_input");  // a failing contract: no mutant is run
  c.ws.write("projects/softmax/pypto_src/incore.py", "pl.store(pl.add(t, t), [0, 0], out)\n");
  auto failing = test::runBinary("verify --platform a2a3 --mutants 2 --format json --no-kernel-compile " + c.args() +
                                     "projects/softmax", c.ws.path());
  EXPECT_FALSE(says(failing.out, "GOLD024")) << failing.out;
  EXPECT_TRUE(says(failing.out, "no port passed its contract")) << failing.out;

  c.ws.write("projects/softmax/pypto_src/FAKE_RUN", "contract_pass\n");
  auto passing = test::runBinary("verify --platform a2a3 --mutants 2 --format json --no-kernel-compile " + c.args() +
                                     "projects/softmax", c.ws.path());
  EXPECT_EQ(passing.exit_code, 1) << passing.out;
  EXPECT_TRUE(says(passing.out, "a mutant of softmax passes its contract on a2a3sim: incore.py:1 drop-store")) << passing.out;
  EXPECT_TRUE(says(passing.out, "incore.py:1 swap-op")) << passing.out;
  EXPECT_TRUE(says(passing.out, "2 mutants on a2a3sim: 0 failed the contract, 2 passed it (GOLD024)")) << passing.out;
}

TEST(VerifyMutants, APortWhoseKernelsAreImportedSaysSoInsteadOfCountingNothing) {
  test::CliWorkspace c;
  c.project("softmax", "contract_pass");
  c.ws.write("projects/softmax/pypto_src/orchestration.py", "from layer_norm import layer_norm_rows\n");
  auto r = test::runBinary("verify --platform a2a3 --mutants 2 --format json --no-kernel-compile " + c.args() +
                               "projects/softmax", c.ws.path());
  EXPECT_FALSE(says(r.out, "GOLD024")) << r.out;
  EXPECT_TRUE(says(r.out, "no line of pypto_src/ to mutate in softmax")) << r.out;
}

// A pypto-lib block (docs/contract.md §8) is mutated in a copy of its file, named apart from the block, with the
// files beside it that are not Python (here the fake interpreter's FAKE_RUN); GOLD024 names the block file's line.
TEST(VerifyMutants, ABlockIsMutatedInACopyOfItsFileAndGOLD024NamesTheBlocksLine) {
  test::CliWorkspace c;
  c.ws.write("pypto-lib/blk/FAKE_RUN", "contract_pass\n");
  c.ws.write("pypto-lib/blk/blk.py",
             "import pypto.language as pl\n\n\n@pl.jit\ndef blk(x, out):\n    pl.store(pl.add(x, x), [0, 0], out)\n"
             "    return out\n");
  c.ws.write("pypto-lib/blk/test_blk.py", "pl.store(t, [0, 0], out)\n");  // not the block: never mutated
  auto r = test::runBinary("verify --platform a2a3 --mutants 2 --format json --no-kernel-compile " + c.args() +
                               "pypto-lib/blk",
                           c.ws.path());
  EXPECT_TRUE(says(r.out, "a mutant of blk passes its contract on a2a3sim: blk.py:6 drop-store")) << r.out;
  EXPECT_TRUE(says(r.out, "blk.py:6 swap-op")) << r.out;
  EXPECT_TRUE(says(r.out, "\"file\": \"pypto-lib/blk/blk.py\"")) << r.out;
  EXPECT_TRUE(says(r.out, "2 mutants on a2a3sim: 0 failed the contract, 2 passed it (GOLD024)")) << r.out;
  EXPECT_FALSE(says(r.out, "test_blk.py:1")) << r.out;
  const std::string copy = test::readFile((c.ws / ".port-check-cache/mutants/blk_mutant_1/blk_mutant_1.py").string());
  EXPECT_TRUE(says(copy, "    pass\n")) << copy;
  EXPECT_TRUE(fs::exists(c.ws / ".port-check-cache/mutants/blk_mutant_1/FAKE_RUN"));
  EXPECT_FALSE(fs::exists(c.ws / ".port-check-cache/mutants/blk_mutant_1/test_blk.py"));
}

TEST(Mutants, AProgramFilesMutantsNameTheFileAlone) {
  test::TempDir d;
  d.write("lib/b/b.py", "def k(x, out):\n    pl.store(pl.exp(x), [0, 0], out)\n");
  std::vector<Mutant> all = programFileMutants(d / "lib/b/b.py");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].describe(), "b.py:2 drop-store: `pl.store(pl.exp(x), [0, 0], out)` -> `pass`");
  EXPECT_EQ(all[1].after, "pl.store(pl.neg(x), [0, 0], out)");
}

}  // namespace
}  // namespace portcheck
