#include <gtest/gtest.h>

#include "ledger/line_diff.h"

namespace portcheck::ledger {
namespace {

TEST(LineDiff, EqualTextsHaveNoHunks) {
  EXPECT_TRUE(diffLines("a\nb\n", "a\nb\n").empty());
  EXPECT_TRUE(diffLines("", "").empty());
}

TEST(LineDiff, OneChangedLineIsOneHunkOnBothSides) {
  auto h = diffLines("a\nb\nc\n", "a\nB\nc\n");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0], (Hunk{2, 1, 2, 1}));
}

TEST(LineDiff, InsertionAndDeletionNameTheLineTheyFollow) {
  auto ins = diffLines("a\nc\n", "a\nb1\nb2\nc\n");
  ASSERT_EQ(ins.size(), 1u);
  EXPECT_EQ(ins[0], (Hunk{1, 0, 2, 2}));
  auto del = diffLines("a\nb\nc\n", "a\nc\n");
  ASSERT_EQ(del.size(), 1u);
  EXPECT_EQ(del[0], (Hunk{2, 1, 1, 0}));
}

TEST(LineDiff, SeparateEditsAreSeparateHunksAndLaterLinesShift) {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n";
  std::string after = "0\n1\n2\n3\nfour\n5\n6\n7\n";
  auto h = diffLines(before, after);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0], (Hunk{0, 0, 1, 1}));  // inserted at the top
  EXPECT_EQ(h[1], (Hunk{4, 1, 5, 1}));  // 4 -> four, one line lower now
  EXPECT_EQ(h[2], (Hunk{8, 1, 8, 0}));  // 8 removed at the end
}

TEST(LineDiff, FromAndToAnEmptyText) {
  auto added = diffLines("", "x\ny\n");
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0], (Hunk{0, 0, 1, 2}));
  auto removed = diffLines("x\ny\n", "");
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0], (Hunk{1, 2, 0, 0}));
}

TEST(LineDiff, AMissingFinalNewlineChangesTheLastLine) {
  auto h = diffLines("a\nb\n", "a\nb");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0], (Hunk{2, 1, 2, 1}));
}

TEST(LineDiff, CrlfLineEndsAreComparedAsBytes) {
  EXPECT_TRUE(diffLines("a\r\nb\r\n", "a\r\nb\r\n").empty());
  auto h = diffLines("a\r\nb\r\n", "a\r\nc\r\n");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0], (Hunk{2, 1, 2, 1}));
}

}  // namespace
}  // namespace portcheck::ledger
