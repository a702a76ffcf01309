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

// Long texts are hashed by a sample of their bytes; two that differ only outside it share a hash, and the
// cache still tells them apart by comparing them whole.
TEST(ParseCache, TextsAlikeInTheirSampleAreStillTwoEntries) {
  std::string a(100000, 'x');
  for (std::size_t i = 0; i < a.size(); i += 97) a[i] = static_cast<char>('a' + i % 26);
  std::string b = a;
  std::size_t unsampled = 2048 + 20;  // past the head, between the first two slices
  b[unsampled] = '#';
  ASSERT_NE(a, b);
  EXPECT_EQ(sampledTextHash(a), sampledTextHash(b));
  std::string c = a;
  c[c.size() - 10] = '#';  // in the tail
  EXPECT_NE(sampledTextHash(a), sampledTextHash(c));
  EXPECT_NE(sampledTextHash("short a"), sampledTextHash("short b"));  // short texts: every byte

  RunCacheScope run;
  RunTextCache<int> cache;
  cache.store(a, [](std::string_view) { return 1; });
  EXPECT_FALSE(cache.find(b).has_value());
  cache.store(b, [](std::string_view) { return 2; });
  EXPECT_EQ(cache.find(a), 1);
  EXPECT_EQ(cache.find(b), 2);
  EXPECT_EQ(cache.size(), 2u);
}

}  // namespace
}  // namespace portcheck::parse_cache_test
