// hook.paths matching: '*' within a segment, '**' across segments.
#include <gtest/gtest.h>

#include "git/path_patterns.h"

namespace portcheck::git {
namespace {

TEST(PathPatterns, DefaultPatternsSelectPortSourcesAndPyptoLib) {
  const std::vector<std::string> d = {"projects/*/pypto_src/**", "pypto-lib/**"};
  EXPECT_TRUE(matchesAny(d, "projects/softmax/pypto_src/golden.py"));
  EXPECT_TRUE(matchesAny(d, "projects/softmax/pypto_src/kernels/k.cpp"));
  EXPECT_TRUE(matchesAny(d, "pypto-lib/rms_norm.py"));
  EXPECT_FALSE(matchesAny(d, "projects/softmax/original/model.py"));
  EXPECT_FALSE(matchesAny(d, "projects/a/b/pypto_src/x.py"));  // '*' is one segment
  EXPECT_FALSE(matchesAny(d, "tools/x.py"));
}

TEST(PathPatterns, DoubleStarMatchesZeroOrMoreSegments) {
  EXPECT_TRUE(pathPatternMatch("**/*.py", "a.py"));
  EXPECT_TRUE(pathPatternMatch("**/*.py", "a/b/c.py"));
  EXPECT_TRUE(pathPatternMatch("a/**/z.py", "a/z.py"));
  EXPECT_TRUE(pathPatternMatch("a/**/z.py", "a/b/c/z.py"));
  EXPECT_FALSE(pathPatternMatch("a/**/z.py", "b/z.py"));
  EXPECT_TRUE(pathPatternMatch("./src/*.py", "src/x.py"));
  EXPECT_TRUE(pathPatternMatch("src/[ab].py", "src/a.py"));
}

TEST(PathPatterns, FolderPruningKeepsOnlyFoldersThatCanMatch) {
  const std::vector<std::string> d = {"projects/*/pypto_src/**", "pypto-lib/**"};
  EXPECT_TRUE(folderMayMatch(d, "projects/"));
  EXPECT_TRUE(folderMayMatch(d, "projects/x/"));
  EXPECT_TRUE(folderMayMatch(d, "projects/x/pypto_src/deep/"));
  EXPECT_FALSE(folderMayMatch(d, "projects/x/original/"));
  EXPECT_FALSE(folderMayMatch(d, "node_modules/"));
  EXPECT_TRUE(folderMayMatch(d, "pypto-lib/sub/"));
}

}  // namespace
}  // namespace portcheck::git
