#include "parse/syntax_tree.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "parse/tree_arena.h"

namespace portcheck {

void SyntaxTree::TreeDeleter::operator()(TSTree* t) const {
  if (!(arena_nodes && inTreeArena(t))) ts_tree_delete(t);
}

SyntaxTree SyntaxTree::parse(Language lang, std::string_view text, std::uint64_t timeout_micros) {
  SyntaxTree t;
  t.text_ = text;
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, lang == Language::Python ? tree_sitter_python() : tree_sitter_cpp());
  ts_parser_set_timeout_micros(parser, timeout_micros);
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_delete(parser);
  // The parse allocates the handle last, the way it allocated the nodes: where it lies tells where they do.
  t.tree_ = std::unique_ptr<TSTree, TreeDeleter>(tree, TreeDeleter{tree && inTreeArena(tree)});
  return t;
}

SyntaxTree SyntaxTree::copyFor(std::string_view same_text) const {
  SyntaxTree t;
  t.text_ = same_text;
  if (tree_) t.tree_ = std::unique_ptr<TSTree, TreeDeleter>(ts_tree_copy(tree_.get()), tree_.get_deleter());
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

std::string_view nodeType(TSNode n) {
  // ts_node_type is the name of the node's symbol (its alias's when it has one), and so is the name of
  // ts_node_symbol (the alias's, made public: a symbol of the same name). The model builder asks millions
  // of times; a table per language (Python and C++, each made once per thread) saves the name's strlen.
  struct Names {
    const TSLanguage* language = nullptr;
    std::vector<std::string_view> of_symbol;
  };
  thread_local std::array<Names, 2> tables;
  if (ts_node_is_null(n)) return ts_node_type(n);
  const TSLanguage* language = ts_tree_language(n.tree);
  Names* names = &tables[0];
  if (names->language != language) {
    if (tables[1].language != language) {  // a language not seen yet takes the second slot's place
      tables[1].language = language;
      tables[1].of_symbol.assign(ts_language_symbol_count(language), std::string_view());
      for (TSSymbol s = 0; s < tables[1].of_symbol.size(); ++s)
        if (const char* name = ts_language_symbol_name(language, s)) tables[1].of_symbol[s] = name;
    }
    std::swap(tables[0], tables[1]);  // the language asked for last is looked at first
  }
  const TSSymbol s = ts_node_symbol(n);
  return s < names->of_symbol.size() ? names->of_symbol[s] : std::string_view(ts_node_type(n));  // ERROR: 65535
}

TSNode childByField(TSNode n, std::string_view field) {
  // ts_node_child_by_field_name scans the grammar's field names on every call; the model builder
  // asks for fields millions of times, so resolve each name to its id once per thread and language.
  // Callers pass string literals, so a small cache keyed by the name's address answers almost
  // every call with one short comparison (the bytes are compared too: a non-literal name may reuse
  // an address); other names go through the map.
  struct Slot {
    const char* data = nullptr;
    std::string name;
    TSFieldId id = 0;
  };
  thread_local const TSLanguage* cached_language = nullptr;
  thread_local std::array<Slot, 64> by_address{};
  thread_local std::map<std::string, TSFieldId, std::less<>> ids;
  const TSLanguage* language = ts_tree_language(n.tree);
  if (language != cached_language) {
    ids.clear();
    by_address.fill(Slot{});
    cached_language = language;
  }
  Slot& slot = by_address[(reinterpret_cast<std::uintptr_t>(field.data()) >> 3) % by_address.size()];
  if (slot.data != field.data() || slot.name != field) {
    auto it = ids.find(field);
    if (it == ids.end())
      it = ids.emplace(std::string(field), ts_language_field_id_for_name(language, field.data(),
                                                                         static_cast<uint32_t>(field.size())))
               .first;
    slot = Slot{field.data(), std::string(field), it->second};
  }
  if (slot.id == 0) return TSNode{};  // no such field in this grammar
  return ts_node_child_by_field_id(n, slot.id);
}

namespace {

TSTreeCursor newCursorOutsideArenas(TSNode at) {
  TreeArenaPause outside;
  return ts_tree_cursor_new(at);
}

}  // namespace

std::vector<TSNode> namedChildren(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  uint32_t count = ts_node_named_child_count(n);
  if (count == 0) return out;  // leaves: most nodes
  out.reserve(count);
  if (count <= 4) {  // a cursor costs more than a few short walks from the first child
    for (uint32_t i = 0; i < count; ++i) out.push_back(ts_node_named_child(n, i));
    return out;
  }
  // One cursor per thread, reset for each walk (creating one allocates); the walk ends before return.
  // It outlives every tree arena, so its stack is allocated outside them (parse/tree_arena.h).
  struct Cursor {
    TSTreeCursor c;
    explicit Cursor(TSNode at) : c(newCursorOutsideArenas(at)) {}
    ~Cursor() { ts_tree_cursor_delete(&c); }
  };
  thread_local Cursor cursor(n);
  ts_tree_cursor_reset(&cursor.c, n);
  if (ts_tree_cursor_goto_first_child(&cursor.c)) {
    do {
      TSNode c = ts_tree_cursor_current_node(&cursor.c);
      if (ts_node_is_named(c)) out.push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(&cursor.c));
  }
  return out;
}

}  // namespace portcheck
