// Trees parsed inside a TreeArena live in one region the scope's end takes back at once; trees that must
// outlive it (a run cache, a thread's cursor) are allocated outside (parse/tree_arena.h).
#include <gtest/gtest.h>

#include <cstring>

#include <string>
#include <thread>
#include <vector>

#include "parse/parse_cache.h"
#include "parse/syntax_tree.h"
#include "parse/tree_arena.h"
#include "test_support.h"

// Tree-sitter's allocator, as it calls it (set by parse/tree_arena.cpp).
extern "C" {
extern void* (*ts_current_malloc)(size_t);
extern void* (*ts_current_realloc)(void*, size_t);
extern void (*ts_current_free)(void*);
}

namespace portcheck {
namespace {

// Every node of the tree, counted with a cursor of its own.
long countNodes(const SyntaxTree& t) {
  long n = 0;
  test::forEachNode(t.root(), [&](TSNode) { ++n; });
  return n;
}

std::string program(int functions) {
  std::string s = "import pypto.language as pl\n";
  for (int i = 0; i < functions; ++i)
    s += "def f" + std::to_string(i) + "(a, b):\n    c = pl.add(a, b)\n    return [c, (a, b), {'k': c}]\n";
  return s;
}

TEST(TreeArena, TreesInsideAScopeComeFromItsRegionAndOthersFromMalloc) {
  const std::string text = program(3);
  SyntaxTree outside = SyntaxTree::parse(Language::Python, text);
  EXPECT_FALSE(outside.nodesInArena());
  const void* first = nullptr;
  for (int round = 0; round < 2; ++round) {
    TreeArena arena;
    SyntaxTree inside = SyntaxTree::parse(Language::Python, text);
    ASSERT_TRUE(inside.ok());
    EXPECT_TRUE(inside.nodesInArena());
    EXPECT_EQ(countNodes(inside), countNodes(outside));
    {
      TreeArenaPause pause;
      SyntaxTree kept = SyntaxTree::parse(Language::Python, text);
      EXPECT_FALSE(kept.nodesInArena());
    }
    // The next scope reuses the region from its start: the same allocations land at the same place.
    if (round == 0) first = inside.root().id;
    else EXPECT_EQ(inside.root().id, first);
  }
}

TEST(TreeArena, ANestedScopeGivesBackOnlyWhatItTook) {
  const std::string text = program(2);
  TreeArena outer;
  SyntaxTree before = SyntaxTree::parse(Language::Python, text);
  const long nodes = countNodes(before);
  {
    TreeArena inner;
    for (int i = 0; i < 4; ++i) SyntaxTree::parse(Language::Python, program(20));
  }
  SyntaxTree after = SyntaxTree::parse(Language::Python, program(20));  // lands where the inner scope's did
  EXPECT_EQ(countNodes(before), nodes);
  EXPECT_EQ(countNodes(after), countNodes(SyntaxTree::parse(Language::Python, program(20))));
}

// The thread's namedChildren cursor outlives every scope: its stack must not be region memory that the next
// scope's trees overwrite (it was, once: the next unit's trees came out corrupted).
TEST(TreeArena, TheThreadsChildCursorSurvivesScopes) {
  long nodes = 0, after = 0;
  std::size_t functions = 0;
  // A fresh thread, whose cursor is made inside the first scope, after a large tree.
  std::thread([&] {
    {
      TreeArena first;
      SyntaxTree a = SyntaxTree::parse(Language::Python, program(40));
      EXPECT_FALSE(namedChildren(a.root()).empty());
    }
    // The second scope's trees fill the region past where the first scope's ended.
    TreeArena second;
    SyntaxTree small = SyntaxTree::parse(Language::Python, program(5));
    SyntaxTree large = SyntaxTree::parse(Language::Python, program(60));
    nodes = countNodes(large);
    for (TSNode fn : namedChildren(small.root()))
      for (TSNode part : namedChildren(fn))
        for (TSNode inner : namedChildren(part)) (void)namedChildren(inner);
    after = countNodes(large);
    functions = namedChildren(large.root()).size();
  }).join();
  EXPECT_EQ(after, nodes);
  EXPECT_EQ(functions, 61u);
}

// A tree the run keeps for other units is parsed outside the unit's region and outlives it.
TEST(TreeArena, ATreeTheRunKeepsOutlivesTheUnitThatParsedIt) {
  RunCacheScope run;
  const std::string text = program(5);
  const std::string copy = text;
  {
    TreeArena unit;
    SyntaxTree once = parsePythonShared(text);
    EXPECT_TRUE(once.nodesInArena());
  }
  {
    TreeArena unit;
    SyntaxTree again = parsePythonShared(copy);  // asked for again: kept
    EXPECT_FALSE(again.nodesInArena());
    for (int i = 0; i < 4; ++i) SyntaxTree::parse(Language::Python, program(30));
  }
  TreeArena later;
  for (int i = 0; i < 4; ++i) SyntaxTree::parse(Language::Python, program(30));
  // A copy of the kept tree made inside an arena shares its nodes, which are not the arena's: deleting the
  // copy releases them (under LeakSanitizer a skipped release is a leak).
  SyntaxTree shared = parsePythonShared(text);
  EXPECT_FALSE(shared.nodesInArena());
  EXPECT_EQ(keptPythonTrees(), 1u);
  EXPECT_EQ(countNodes(shared), countNodes(SyntaxTree::parse(Language::Python, text)));
  EXPECT_EQ(shared.nodeText(shared.root()), text);
}

// Blocks keep no size header: the newest grows or shrinks in place; an older one, whose size is not known,
// moves with its bytes (and what follows it, up to the new size).
TEST(TreeArena, BlocksGrowInPlaceOrMoveWithTheirBytes) {
  TreeArena arena;
  auto* a = static_cast<char*>(ts_current_malloc(24));
  ASSERT_TRUE(inTreeArena(a));
  std::memcpy(a, "twenty-three bytes long", 24);
  auto* grown = static_cast<char*>(ts_current_realloc(a, 4000));  // the newest block
  EXPECT_EQ(grown, a);
  EXPECT_STREQ(grown, "twenty-three bytes long");
  auto* b = static_cast<char*>(ts_current_malloc(8));
  std::memcpy(b, "seven!!", 8);
  auto* c = static_cast<char*>(ts_current_malloc(40));
  EXPECT_EQ(ts_current_realloc(c, 16), c);  // the newest shrinks in place
  auto* moved = static_cast<char*>(ts_current_realloc(grown, 9000));  // no longer the newest: moves
  EXPECT_NE(moved, grown);
  EXPECT_TRUE(inTreeArena(moved));
  EXPECT_STREQ(moved, "twenty-three bytes long");
  EXPECT_STREQ(b, "seven!!");  // the block after it is left alone
  {
    TreeArenaPause pause;  // grown while paused: the bytes go to malloc's memory
    auto* out = static_cast<char*>(ts_current_realloc(b, 64));
    EXPECT_FALSE(inTreeArena(out));
    EXPECT_STREQ(out, "seven!!");
    ts_current_free(out);
  }
  ts_current_free(moved);  // a no-op: the scope takes it back
}

// Tree-sitter never grows a block of another thread's tree; were it to, the size is not known: it aborts
// rather than copy a guess.
TEST(TreeArenaDeathTest, GrowingAnotherThreadsBlockAborts) {
  EXPECT_DEATH(
      {
        TreeArena mine;
        void* theirs = nullptr;
        std::thread([&] {
          TreeArena other;
          theirs = ts_current_malloc(32);
        }).join();
        ts_current_realloc(theirs, 64);
      },
      "a tree block of another thread's arena was grown");
}

}  // namespace
}  // namespace portcheck
