// What changed since the previous attempt: files added, removed and modified with their line ranges,
// named by the functions and kernels they touch; the snapshot they are diffed against is bounded.
#include <gtest/gtest.h>

#include "compiler/content_hash.h"
#include "ledger/code_spans.h"
#include "ledger/source_snapshot.h"
#include "test_support.h"

namespace portcheck::ledger {
namespace {

SourceFile src(const std::string& path, const std::string& text) {
  SourceFile f;
  f.path = path;
  f.text = text;
  return f;
}

ProjectSources sourcesOf(std::vector<std::pair<std::string, std::string>> files) {
  ProjectSources s;
  for (auto& [path, text] : files) {
    s.hashes.push_back({path, contentHash(text)});
    s.files.push_back(src(path, text));
  }
  return s;
}

const std::string kIncore =
    "import pypto.language as pl\n"        // 1
    "\n"                                   // 2
    "\n"                                   // 3
    "@pl.jit\n"                            // 4
    "def rows(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n"  // 5
    "    with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"first\"):\n"                       // 6
    "        t = pl.load(x, [0, 0], [64, 64])\n"                                              // 7
    "        pl.store(pl.exp(t), [0, 0], y)\n"                                                // 8
    "    with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"second\"):\n"                      // 9
    "        u = pl.load(y, [0, 0], [64, 64])\n"                                              // 10
    "        pl.store(pl.add(u, u), [0, 0], y)\n"                                             // 11
    "    return y\n"                                                                          // 12
    "\n"                                                                                      // 13
    "\n"                                                                                      // 14
    "def helper(n):\n"                                                                        // 15
    "    return n * 2\n";                                                                     // 16

TEST(SourceSnapshot, ModifiedFilesCarryTheirChangedLineRanges) {
  Snapshot before = takeSnapshot(sourcesOf({{"p/a.py", "x = 1\ny = 2\n"}, {"p/b.py", "b = 1\n"}}), 1);
  ProjectSources now = sourcesOf({{"p/a.py", "x = 1\ny = 3\n"}, {"p/c.py", "c = 1\nd = 2\n"}});
  std::vector<FileChange> changes = changesSince(before, now);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].file, "p/a.py");
  EXPECT_EQ(changes[0].status, "modified");
  ASSERT_EQ(changes[0].hunks.size(), 1u);
  EXPECT_EQ(changes[0].hunks[0], (Hunk{2, 1, 2, 1}));
  EXPECT_EQ(changes[1].file, "p/b.py");
  EXPECT_EQ(changes[1].status, "removed");
  EXPECT_EQ(changes[2].file, "p/c.py");
  EXPECT_EQ(changes[2].status, "added");
  EXPECT_EQ(changes[2].hunks[0], (Hunk{0, 0, 1, 2}));
}

TEST(SourceSnapshot, UnchangedFilesAreNoChange) {
  ProjectSources s = sourcesOf({{"p/a.py", "x = 1\n"}});
  EXPECT_TRUE(changesSince(takeSnapshot(s, 1), s).empty());
}

TEST(SourceSnapshot, AFileOverTheBoundIsKeptByHashAndItsChangeHasNoLines) {
  std::string big(kMaxSnapshotFileBytes + 1, 'x');
  Snapshot before = takeSnapshot(sourcesOf({{"p/big.py", big}, {"p/small.py", "s = 1\n"}}), 4);
  EXPECT_FALSE(before.files.at("p/big.py").text.has_value());
  EXPECT_TRUE(before.files.at("p/small.py").text.has_value());
  std::vector<FileChange> changes = changesSince(before, sourcesOf({{"p/big.py", big + "y"}, {"p/small.py", "s = 1\n"}}));
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_FALSE(changes[0].lines_known);
  EXPECT_TRUE(changes[0].hunks.empty());
}

TEST(SourceSnapshot, TheWholeSnapshotIsBoundedToo) {
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 0; i < 10; ++i) files.push_back({"p/f" + std::to_string(i) + ".py", std::string(kMaxSnapshotFileBytes, 'a')});
  Snapshot s = takeSnapshot(sourcesOf(files), 1);
  std::size_t kept = 0;
  for (const auto& [path, f] : s.files) kept += f.text ? f.text->size() : 0;
  EXPECT_LE(kept, kMaxSnapshotBytes);
  EXPECT_FALSE(s.files.at("p/f9.py").text.has_value());
}

TEST(SourceSnapshot, WrittenAndReadBack) {
  portcheck::test::TempDir dir;
  Snapshot s = takeSnapshot(sourcesOf({{"p/a.py", "x = 1\n"}}), 7);
  std::string error;
  ASSERT_TRUE(writeSnapshot(dir / "snapshot.json", s, error)) << error;
  std::optional<Snapshot> back = readSnapshot(dir / "snapshot.json");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->attempt, 7);
  EXPECT_EQ(back->files.at("p/a.py").text, "x = 1\n");
  dir.write("broken.json", "{\"attempt\": ");
  EXPECT_FALSE(readSnapshot(dir / "broken.json"));
}

TEST(CodeSpans, ChangesAreNamedByTheFunctionsAndKernelsTheyTouch) {
  std::vector<SourceFile> files = {src("p/incore.py", kIncore), src("p/kernels/k.cpp", "void k() {}\n")};
  std::vector<CodeSpan> spans = codeSpans(files);
  std::vector<FileChange> changes = {
      {"p/incore.py", "modified", {{7, 1, 7, 1}}, true, {}, {}},     // inside kernel "first"
      {"p/kernels/k.cpp", "modified", {{1, 1, 1, 1}}, true, {}, {}},  // a C++ kernel is one kernel
  };
  attributeChanges(changes, spans);
  EXPECT_EQ(changes[0].functions, std::vector<std::string>{"rows"});
  EXPECT_EQ(changes[0].kernels, std::vector<std::string>{"first"});
  EXPECT_EQ(changes[1].kernels, std::vector<std::string>{"k"});

  std::vector<FileChange> both = {{"p/incore.py", "modified", {{8, 2, 8, 2}, {16, 1, 16, 1}}, true, {}, {}}};
  attributeChanges(both, spans);
  EXPECT_EQ(both[0].functions, (std::vector<std::string>{"rows", "helper"}));
  EXPECT_EQ(both[0].kernels, (std::vector<std::string>{"first", "second"}));
}

TEST(CodeSpans, FindingsAreNamedByTheirInnermostFunction) {
  std::vector<SourceFile> files = {src("p/incore.py", kIncore)};
  std::vector<CodeSpan> spans = codeSpans(files);
  EXPECT_EQ(enclosingFunction(spans, "p/incore.py", 4), "rows");   // the decorator belongs to it
  EXPECT_EQ(enclosingFunction(spans, "p/incore.py", 10), "rows");
  EXPECT_EQ(enclosingFunction(spans, "p/incore.py", 16), "helper");
  EXPECT_EQ(enclosingFunction(spans, "p/incore.py", 1), "");
  EXPECT_EQ(enclosingFunction(spans, "p/incore.py", 0), "");
  EXPECT_EQ(definedNames(spans), (std::vector<std::string>{"first", "helper", "rows", "second"}));
}

}  // namespace
}  // namespace portcheck::ledger
