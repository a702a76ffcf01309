#include "parse/syntax_tree.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace portcheck {

SyntaxTree SyntaxTree::parse(Language lang, std::string_view text, std::uint64_t timeout_micros) {
  SyntaxTree t;
  t.text_ = text;
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, lang == Language::Python ? tree_sitter_python() : tree_sitter_cpp());
  ts_parser_set_timeout_micros(parser, timeout_micros);
  t.tree_.reset(ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size())));
  ts_parser_delete(parser);
  return t;
}

TSNode SyntaxTree::root() const { return tree_ ? ts_tree_root_node(tree_.get()) : TSNode{}; }

bool SyntaxTree::hasError() const { return tree_ && ts_node_has_error(root()); }

std::string_view SyntaxTree::nodeText(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > text_.size() || e > text_.size() || e < b) return {};
  return text_.substr(b, e - b);
}

TSNode SyntaxTree::firstError() const {
  if (!hasError()) return TSNode{};
  // Iterative pre-order walk (deeply nested input must not overflow the stack).
  TSTreeCursor cursor = ts_tree_cursor_new(root());
  TSNode found{};
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    if (nodeType(n) == "ERROR" || ts_node_is_missing(n)) {
      found = n;
      break;
    }
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) moved = true;
      else if (!ts_tree_cursor_goto_parent(&cursor)) break;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

TSNode childByField(TSNode n, std::string_view field) {
  // ts_node_child_by_field_name scans the grammar's field names on every call; the model builder
  // asks for fields millions of times, so resolve each name to its id once per thread and language.
  thread_local const TSLanguage* cached_language = nullptr;
  thread_local std::map<std::string, TSFieldId, std::less<>> ids;
  const TSLanguage* language = ts_tree_language(n.tree);
  if (language != cached_language) {
    ids.clear();
    cached_language = language;
  }
  auto it = ids.find(field);
  if (it == ids.end())
    it = ids.emplace(std::string(field), ts_language_field_id_for_name(language, field.data(),
                                                                       static_cast<uint32_t>(field.size())))
             .first;
  if (it->second == 0) return TSNode{};  // no such field in this grammar
  return ts_node_child_by_field_id(n, it->second);
}

}  // namespace portcheck
