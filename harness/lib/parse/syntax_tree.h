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

 private:
  // A tree whose nodes lie in a tree arena is taken back with it (parse/tree_arena.h), not node by node.
  struct TreeDeleter { void operator()(TSTree* t) const; };
  std::unique_ptr<TSTree, TreeDeleter> tree_;
  std::string_view text_;
};

// Small helpers over TSNode.
inline bool isNull(TSNode n) { return ts_node_is_null(n); }
inline std::string_view nodeType(TSNode n) { return ts_node_type(n); }
inline bool isComment(TSNode n) { return nodeType(n) == "comment"; }
TSNode childByField(TSNode n, std::string_view field);
// The named children of `n` in order, walked with a tree cursor: O(children), where a loop over
// ts_node_named_child(n, i) is O(children^2) (each call walks from the first child).
std::vector<TSNode> namedChildren(TSNode n);

}  // namespace portcheck
