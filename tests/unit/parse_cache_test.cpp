// Parse trees shared within one run only (parse/parse_cache.h): outside a RunCacheScope nothing is
// kept, so a long-lived process (the fuzzers, a server) does not grow; each outermost scope is a new run.
#include <gtest/gtest.h>

#include "parse/parse_cache.h"

namespace portcheck::parse_cache_test {
namespace {

TEST(ParseCache, GenerationsBelongToOutermostScopes) {
  EXPECT_EQ(runCacheGeneration(), 0u);
  std::uint64_t first = 0;
  {
    RunCacheScope run;
    first = runCacheGeneration();
    EXPECT_NE(first, 0u);
    {
      RunCacheScope nested;
      EXPECT_EQ(runCacheGeneration(), first);
    }
    EXPECT_EQ(runCacheGeneration(), first);
  }
  EXPECT_EQ(runCacheGeneration(), 0u);
  RunCacheScope again;
  EXPECT_NE(runCacheGeneration(), first);
}

TEST(ParseCache, ASharedTreeReadsItsOwnCopyOfTheText) {
  std::string a = "x = 1\ndef f(y):\n    return y\n";
  std::string b = a;  // another unit's copy of the same file
  RunCacheScope run;
  SyntaxTree ta = parsePythonShared(a);
  SyntaxTree tb = parsePythonShared(b);
  ASSERT_TRUE(ta.ok());
  ASSERT_TRUE(tb.ok());
  EXPECT_EQ(tb.text().data(), b.data());
  EXPECT_EQ(tb.nodeText(tb.root()), b);
  EXPECT_EQ(ts_node_named_child_count(ta.root()), ts_node_named_child_count(tb.root()));
  SyntaxTree outside = SyntaxTree::parse(Language::Python, a);
  EXPECT_EQ(ts_node_named_child_count(outside.root()), ts_node_named_child_count(tb.root()));
}

// A text asked for once is not kept (its unit frees it); asked for again (another unit imports the
// module), it is kept and shared from then on.
TEST(ParseCache, OnlyATextAskedForAgainIsKept) {
  RunCacheScope run;
  EXPECT_EQ(keptPythonTrees(), 0u);
  std::string once = "a = 1\n";
  std::string shared = "b = 2\n";
  SyntaxTree t1 = parsePythonShared(once);
  SyntaxTree s1 = parsePythonShared(shared);
  EXPECT_EQ(keptPythonTrees(), 0u);
  std::string shared_copy = shared;
  SyntaxTree s2 = parsePythonShared(shared_copy);
  EXPECT_EQ(keptPythonTrees(), 1u);
  SyntaxTree s3 = parsePythonShared(shared);
  EXPECT_EQ(keptPythonTrees(), 1u);
  ASSERT_TRUE(s3.ok());
  EXPECT_EQ(s3.nodeText(s3.root()), shared);
}

}  // namespace
}  // namespace portcheck::parse_cache_test
