#include <gtest/gtest.h>

#include "core/source_file.h"
#include "core/text.h"
#include "test_support.h"

namespace portcheck {
namespace {

TEST(Utf8, ValidTextIsUnchanged) {
  std::string s = "tile \xE2\x86\x92 store";  // contains U+2192
  EXPECT_TRUE(isValidUtf8(s));
  EXPECT_EQ(sanitizeUtf8(s), s);
}

TEST(Utf8, InvalidBytesBecomeReplacementCharacters) {
  EXPECT_EQ(sanitizeUtf8("a\xff" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(sanitizeUtf8("\xC3"), "\xEF\xBF\xBD");                 // truncated sequence
  EXPECT_EQ(sanitizeUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong form
  EXPECT_EQ(sanitizeUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_FALSE(isValidUtf8("\xff"));
}

TEST(SourceFile, PositionsAreOneBasedCodePoints) {
  SourceFile f;
  f.text = "ab\n\xE2\x86\x92x = 1\n";
  EXPECT_EQ(f.position(0), std::make_pair(1, 1));
  EXPECT_EQ(f.position(3), std::make_pair(2, 1));
  EXPECT_EQ(f.position(6), std::make_pair(2, 2));  // after the 3-byte arrow: column 2
  EXPECT_EQ(f.lineText(2), "\xE2\x86\x92x = 1");
}

TEST(SourceFile, CrlfLinesStripTheCarriageReturn) {
  ReadResult r = sourceFromBytes("a = 1\r\nb = 2\r\n", "x.py");
  ASSERT_TRUE(r.file);
  EXPECT_TRUE(r.file->crlf);
  EXPECT_EQ(r.file->lineText(2), "b = 2");
}

TEST(SourceFile, BinaryAndOversizedInputsAreRefusedWithAReason) {
  ReadResult bin = sourceFromBytes(std::string("ab\0cd", 5), "x.py");
  EXPECT_EQ(bin.problem, ReadProblem::Binary);
  EXPECT_FALSE(bin.file);
  ReadResult big = sourceFromBytes(std::string(100, 'a'), "x.py", 10);
  EXPECT_EQ(big.problem, ReadProblem::TooLarge);
  EXPECT_NE(big.detail.find("100 bytes"), std::string::npos);
}

TEST(SourceFile, MissingAndLoopingLinksAreReported) {
  test::TempDir dir;
  EXPECT_EQ(readSourceFile(dir / "nope.py", "nope.py").problem, ReadProblem::NotFound);
  std::filesystem::create_symlink(dir / "loop_a", dir / "loop_b");
  std::filesystem::create_symlink(dir / "loop_b", dir / "loop_a");
  ReadResult r = readSourceFile(dir / "loop_a", "loop_a");
  EXPECT_EQ(r.problem, ReadProblem::Unreadable);
  EXPECT_NE(r.detail.find("loop"), std::string::npos);
  EXPECT_EQ(readSourceFile(dir.path(), "dir").problem, ReadProblem::NotRegular);
}

TEST(Text, SplitLinesHandlesCrlfAndNoFinalNewline) {
  auto lines = splitLines("a\r\nb\nc");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "a");
  EXPECT_EQ(lines[2], "c");
}

TEST(Text, NumbersFromCompilerOutputNeverThrow) {
  EXPECT_EQ(parseInt64("188416"), 188416);
  EXPECT_EQ(parseInt64("-3"), -3);
  EXPECT_EQ(parseInt64("9223372036854775807"), INT64_MAX);
  EXPECT_FALSE(parseInt64("9223372036854775808"));  // one past int64
  EXPECT_FALSE(parseInt64(std::string(400, '9')));
  EXPECT_FALSE(parseInt64(""));
  EXPECT_FALSE(parseInt64("12a"));
  EXPECT_FALSE(parseInt64(" 12"));
  EXPECT_EQ(parseIntOr("42"), 42);
  EXPECT_EQ(parseIntOr("2147483648"), 0);  // past INT_MAX: the fallback
  EXPECT_EQ(parseIntOr("x", -1), -1);
}

}  // namespace
}  // namespace portcheck
