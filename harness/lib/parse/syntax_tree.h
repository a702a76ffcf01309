#pragma once
// RAII wrappers over tree-sitter for the pinned Python and C++ grammars.
#include <tree_sitter/api.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

extern "C" {
const TSLanguage* tree_sitter_python(void);
const TSLanguage* tree_sitter_cpp(void);
}

namespace portcheck {

enum class Language { Python, Cpp };

class SyntaxTree {
 public:
  // Parses `text` (kept alive by the caller for the tree's lifetime). Never throws on bad input;
  // a parse that exceeds `timeout_micros` returns an empty tree (root() is null).
  static SyntaxTree parse(Language lang, std::string_view text, std::uint64_t timeout_micros = 5'000'000);

  // The same tree over another copy of the same text (ts_tree_copy: shares the nodes, cheap).
  SyntaxTree copyFor(std::string_view same_text) const;

  bool ok() const { return tree_ != nullptr; }
  TSNode root() const;
  bool hasError() const;
  std::string_view text() const { return text_; }
  std::string_view nodeText(TSNode n) const;

  // First ERROR or MISSING node in document order; null node when none.
  TSNode firstError() const;

  // True when the nodes were parsed inside a tree arena (parse/tree_arena.h): they are taken back with it.
  bool nodesInArena() const { return tree_.get_deleter().arena_nodes; }

 private:
  // A tree whose nodes and handle both lie in a tree arena goes with the arena, not node by node; any other
  // is deleted (a handle made outside an arena, or a handle in one over nodes parsed outside it).
  struct TreeDeleter {
    TreeDeleter() : arena_nodes(false) {}
    explicit TreeDeleter(bool in_arena) : arena_nodes(in_arena) {}
    void operator()(TSTree* t) const;
    bool arena_nodes;
  };
  std::unique_ptr<TSTree, TreeDeleter> tree_;
  std::string_view text_;
};

// Small helpers over TSNode.
inline bool isNull(TSNode n) { return ts_node_is_null(n); }
// ts_node_type(n), its length known: the names of a language's symbols are measured once per thread.
std::string_view nodeType(TSNode n);
inline bool isComment(TSNode n) { return nodeType(n) == "comment"; }
TSNode childByField(TSNode n, std::string_view field);
// The named children of `n` in order, walked with a tree cursor: O(children), where a loop over
// ts_node_named_child(n, i) is O(children^2) (each call walks from the first child).
std::vector<TSNode> namedChildren(TSNode n);

}  // namespace portcheck
