#include "kernel/kernel_model.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "kernel/kernel_source.h"

namespace portcheck::kernel {

bool Loop::writes(std::string_view name) const {
  return std::find(written.begin(), written.end(), name) != written.end();
}

Loc KernelModel::locOf(const Operand& o) const {
  const Symbol* s = symbolOf(o);
  return s && s->kind == SymbolKind::Tile ? s->tile.loc : Loc::Unknown;
}

namespace {

// ---- three-valued logic over preprocessor conditions ----

Tri triNot(Tri a) { return a == Tri::Unknown ? a : (a == Tri::True ? Tri::False : Tri::True); }
Tri triAnd(Tri a, Tri b) {
  if (a == Tri::False || b == Tri::False) return Tri::False;
  return a == Tri::True && b == Tri::True ? Tri::True : Tri::Unknown;
}
Tri triOr(Tri a, Tri b) {
  if (a == Tri::True || b == Tri::True) return Tri::True;
  return a == Tri::False && b == Tri::False ? Tri::False : Tri::Unknown;
}

// One build configuration: which macros are known to be defined or undefined.
enum class Build { Auto, Vec, Cube };

bool isVecMacro(std::string_view m) { return m == "__DAV_VEC__" || m == "__DAV_C220_VEC__" || m == "__DAV_C310_VEC__"; }
bool isCubeMacro(std::string_view m) {
  return m == "__DAV_CUBE__" || m == "__DAV_C220_CUBE__" || m == "__DAV_C310_CUBE__";
}

Tri macroDefined(Build b, std::string_view m) {
  switch (b) {
    case Build::Auto: return m == "__PTO_AUTO__" ? Tri::True : Tri::Unknown;
    case Build::Vec: return isVecMacro(m) ? Tri::True : isCubeMacro(m) ? Tri::False : Tri::Unknown;
    case Build::Cube: return isCubeMacro(m) ? Tri::True : isVecMacro(m) ? Tri::False : Tri::Unknown;
  }
  return Tri::Unknown;
}

std::string_view text(const SyntaxTree& t, TSNode n) { return t.nodeText(n); }

Tri evalCondition(const SyntaxTree& t, TSNode n, Build b) {
  if (isNull(n)) return Tri::Unknown;
  std::string_view type = nodeType(n);
  if (type == "preproc_defined") {
    for (TSNode c : namedChildren(n)) {
      if (nodeType(c) == "identifier") return macroDefined(b, text(t, c));
    }
    return Tri::Unknown;
  }
  if (type == "identifier") {
    // `#if MACRO`: an undefined macro is 0; a defined one is usually 1.
    Tri d = macroDefined(b, text(t, n));
    return d;
  }
  if (type == "number_literal") return text(t, n) == "0" ? Tri::False : Tri::True;
  if (type == "parenthesized_expression") return evalCondition(t, ts_node_named_child(n, 0), b);
  if (type == "unary_expression") {
    TSNode op = childByField(n, "operator");
    if (!isNull(op) && text(t, op) == "!") return triNot(evalCondition(t, childByField(n, "argument"), b));
    return Tri::Unknown;
  }
  if (type == "binary_expression") {
    std::string_view op = text(t, childByField(n, "operator"));
    Tri l = evalCondition(t, childByField(n, "left"), b), r = evalCondition(t, childByField(n, "right"), b);
    if (op == "&&") return triAnd(l, r);
    if (op == "||") return triOr(l, r);
    return Tri::Unknown;
  }
  return Tri::Unknown;
}

// ---- the walker ----

struct Alias {
  std::string name;
  SymbolKind kind = SymbolKind::Other;
  TileType tile;
  std::uint32_t scope_begin = 0, scope_end = 0;
};

struct Constant {
  std::string name;
  std::int64_t value = 0;
  std::uint32_t scope_begin = 0, scope_end = 0;
};

struct Context {
  Reach reach;
  int function = -1;
  int loop_depth = 0;
  std::uint32_t block_begin = 0, block_end = 0;
  int loop = -1;               // innermost loop of the current function
  bool multibuffered = false;  // inside MultiBuffered<N>::loop's body lambda
};

struct ScopedName {  // a compile-time constant whose value the linter cannot compute (template parameter, ...)
  std::string name;
  std::uint32_t scope_begin = 0, scope_end = 0;
};

std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out += c;
  return out;
}

// Every child of `n` in field `field` (a declaration has one declarator per declared name). Uses a cursor:
// its field names are reliable where ts_node_field_name_for_child is not (it miscounts around extras).
std::vector<TSNode> childrenByField(TSNode n, std::string_view field) {
  std::vector<TSNode> out;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      const char* f = ts_tree_cursor_current_field_name(&c);
      if (f && field == f) out.push_back(ts_tree_cursor_current_node(&c));
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

std::string_view afterScope(std::string_view s) {
  auto p = s.rfind("::");
  return p == std::string_view::npos ? s : s.substr(p + 2);
}

class Builder {
 public:
  Builder(const SourceFile& f, const SyntaxTree& t) : file_(f), tree_(t) {}

  KernelModel build() {
    TSNode root = tree_.root();
    Context ctx;
    ctx.block_begin = 0;
    ctx.block_end = ts_node_end_byte(root);
    visitChildren(root, ctx);
    return std::move(model_);
  }

 private:
  const SourceFile& file_;
  const SyntaxTree& tree_;
  KernelModel model_;
  std::vector<Alias> aliases_;
  std::vector<Constant> constants_;
  std::vector<ScopedName> constant_names_;

  std::string_view txt(TSNode n) const { return tree_.nodeText(n); }
  std::string_view original(TSNode n) const {
    if (isNull(n)) return {};  // a declaration without a type (found by fuzz_kernel_model)
    std::uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    return e <= file_.text.size() && b <= e ? std::string_view(file_.text).substr(b, e - b) : std::string_view();
  }
  // The original text of `n` including the blanked CCE qualifiers before its first token (`__gm__ float* x`).
  std::string_view withLeadingQualifiers(TSNode n) const {
    TSNode prev = ts_node_prev_sibling(n);
    TSNode parent = ts_node_parent(n);
    std::uint32_t b = !isNull(prev) ? ts_node_end_byte(prev) : !isNull(parent) ? ts_node_start_byte(parent) : 0;
    std::uint32_t e = ts_node_end_byte(n);
    b = std::min(b, ts_node_start_byte(n));
    return e <= file_.text.size() ? std::string_view(file_.text).substr(b, e - b) : std::string_view();
  }

  Position pos(TSNode n) const {
    Position p;
    p.byte = ts_node_start_byte(n);
    auto [line, col] = file_.position(p.byte);
    p.line = line;
    p.column = col;
    return p;
  }

  // ---- lookups ----
  template <typename T>
  const T* lookup(const std::vector<T>& v, std::string_view name, std::uint32_t at) const {
    for (auto it = v.rbegin(); it != v.rend(); ++it)
      if (it->name == name && it->scope_begin <= at && at < it->scope_end) return &*it;
    return nullptr;
  }
  int lookupSymbol(std::string_view name, std::uint32_t at) const {
    for (int i = static_cast<int>(model_.symbols.size()) - 1; i >= 0; --i) {
      const Symbol& s = model_.symbols[i];
      if (s.name == name && s.scope_begin <= at && at < s.scope_end) return i;
    }
    return -1;
  }

  // ---- constant expressions ----
  std::optional<std::int64_t> evalInt(TSNode n, std::uint32_t at) const {
    if (isNull(n)) return std::nullopt;
    std::string_view type = nodeType(n);
    if (type == "type_descriptor") return evalInt(childByField(n, "type"), at);
    if (type == "number_literal") {
      std::string s(txt(n));
      while (!s.empty() && (s.back() == 'u' || s.back() == 'U' || s.back() == 'l' || s.back() == 'L')) s.pop_back();
      bool neg = !s.empty() && s[0] == '-';
      if (neg) s.erase(0, 1);
      int base = 10;
      if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s.erase(0, 2);
      std::int64_t v = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
      return neg ? -v : v;
    }
    if (type == "identifier" || type == "type_identifier" || type == "qualified_identifier") {
      std::string_view name = afterScope(txt(n));
      if (name == "DYNAMIC") return -1;
      if (const Constant* c = lookup(constants_, name, at)) return c->value;
      return std::nullopt;
    }
    if (type == "parenthesized_expression") return evalInt(ts_node_named_child(n, 0), at);
    if (type == "unary_expression") {
      auto v = evalInt(childByField(n, "argument"), at);
      std::string_view op = txt(childByField(n, "operator"));
      if (!v) return std::nullopt;
      if (op == "-") return -*v;
      if (op == "+") return *v;
      return std::nullopt;
    }
    if (type == "sizeof_expression") {
      TSNode ty = childByField(n, "type");
      if (isNull(ty)) return std::nullopt;
      auto b = dtypeBytes(normaliseDtype(squeeze(txt(ty))));
      if (b) return *b;
      return std::nullopt;
    }
    if (type == "binary_expression") {
      auto l = evalInt(childByField(n, "left"), at), r = evalInt(childByField(n, "right"), at);
      if (!l || !r) return std::nullopt;
      std::string_view op = txt(childByField(n, "operator"));
      if (op == "+") return *l + *r;
      if (op == "-") return *l - *r;
      if (op == "*") return *l * *r;
      if (op == "/") return *r ? std::optional<std::int64_t>(*l / *r) : std::nullopt;
      if (op == "%") return *r ? std::optional<std::int64_t>(*l % *r) : std::nullopt;
      if (op == "<<" && *r >= 0 && *r < 62) return *l << *r;
      if (op == ">>" && *r >= 0 && *r < 62) return *l >> *r;
      return std::nullopt;
    }
    return std::nullopt;
  }

  // True when `n` is a compile-time constant: literals, constexpr names, template parameters, enumerators
  // (`A::B`), sizeof, and operators over those.
  bool isConstantExpr(TSNode n, std::uint32_t at) const {
    if (isNull(n)) return false;
    if (evalInt(n, at)) return true;
    std::string_view type = nodeType(n);
    if (type == "number_literal" || type == "true" || type == "false" || type == "char_literal" ||
        type == "sizeof_expression" || type == "qualified_identifier")
      return true;
    if (type == "identifier") {
      std::string_view name = txt(n);
      return lookup(constants_, name, at) || lookup(constant_names_, name, at);
    }
    if (type == "parenthesized_expression") return isConstantExpr(ts_node_named_child(n, 0), at);
    if (type == "unary_expression") return isConstantExpr(childByField(n, "argument"), at);
    if (type == "binary_expression")
      return isConstantExpr(childByField(n, "left"), at) && isConstantExpr(childByField(n, "right"), at);
    if (type == "conditional_expression")
      return isConstantExpr(childByField(n, "condition"), at) && isConstantExpr(childByField(n, "consequence"), at) &&
             isConstantExpr(childByField(n, "alternative"), at);
    if (type == "cast_expression" || type == "static_cast_expression")
      return isConstantExpr(childByField(n, "value"), at);
    return false;
  }

  // ---- types ----
  struct Resolved {
    SymbolKind kind = SymbolKind::Other;
    TileType tile;
  };

  static std::string show(const std::optional<std::int64_t>& v, std::string_view spelled) {
    return v ? std::to_string(*v) : std::string(spelled);
  }

  Resolved tileFromArgs(Loc loc, std::string_view family, const std::vector<TSNode>& args, std::uint32_t at) const {
    Resolved r;
    r.kind = SymbolKind::Tile;
    TileType& t = r.tile;
    t.loc = loc;
    auto arg = [&](std::size_t i) { return i < args.size() ? args[i] : TSNode{}; };
    auto argText = [&](std::size_t i) { return i < args.size() ? squeeze(txt(args[i])) : std::string(); };
    std::size_t first = family == "Tile" || family == "ConvTile" ? 1 : 0;  // Tile<Loc, T, R, C, ...>
    t.dtype = normaliseDtype(argText(first));
    t.rows = evalInt(arg(first + 1), at);
    t.cols = evalInt(arg(first + 2), at);
    std::string rv, cv;
    if (family == "Tile") {
      if (args.size() > 4) t.blayout = std::string(afterScope(argText(4)));
      t.valid_rows = args.size() > 5 ? evalInt(arg(5), at) : t.rows;
      t.valid_cols = args.size() > 6 ? evalInt(arg(6), at) : t.cols;
      if (args.size() > 7) t.slayout = std::string(afterScope(argText(7)));
      rv = args.size() > 5 ? argText(5) : "";
      cv = args.size() > 6 ? argText(6) : "";
    } else {
      // TileLeft/TileRight/TileAcc<T, R, C[, RV, CV]>: fractal (boxed) layouts (pto_tile.hpp:1714-1777).
      t.valid_rows = args.size() > 3 ? evalInt(arg(3), at) : t.rows;
      t.valid_cols = args.size() > 4 ? evalInt(arg(4), at) : t.cols;
      t.blayout = loc == Loc::Right ? "RowMajor" : "ColMajor";
      t.slayout = loc == Loc::Right ? "ColMajor" : "RowMajor";
      rv = args.size() > 3 ? argText(3) : "";
      cv = args.size() > 4 ? argText(4) : "";
    }
    std::string tail;
    for (std::size_t i = family == "Tile" ? 8 : 5; i < args.size(); ++i) tail += "," + argText(i);
    t.canonical = "Tile<" + std::string(toString(loc)) + "," + t.dtype + "," + show(t.rows, argText(first + 1)) + "," +
                  show(t.cols, argText(first + 2)) + "," + t.blayout + "," + show(t.valid_rows, rv) + "," +
                  show(t.valid_cols, cv) + "," + t.slayout + tail + ">";
    return r;
  }

  Resolved resolveType(TSNode n, std::uint32_t at) const {
    Resolved none;
    if (isNull(n)) return none;
    std::string_view type = nodeType(n);
    if (type == "type_descriptor") return resolveType(childByField(n, "type"), at);
    if (type == "qualified_identifier") {
      TSNode name = childByField(n, "name");
      if (!isNull(name) && (nodeType(name) == "template_type" || nodeType(name) == "type_identifier"))
        return resolveType(name, at);
      return none;
    }
    if (type == "type_identifier") {
      std::string_view name = txt(n);
      if (const Alias* a = lookup(aliases_, name, at)) return Resolved{a->kind, a->tile};
      return none;
    }
    if (type == "template_type") {
      std::string name(afterScope(txt(childByField(n, "name"))));
      std::vector<TSNode> args;
      TSNode list = childByField(n, "arguments");
      for (uint32_t i = 0; !isNull(list) && i < ts_node_named_child_count(list); ++i)
        args.push_back(ts_node_named_child(list, i));
      if (name == "Tile" || name == "ConvTile") {
        auto loc = args.empty() ? std::nullopt : parseLoc(squeeze(txt(args[0])));
        Resolved r = tileFromArgs(loc.value_or(Loc::Unknown), name, args, at);
        if (name == "ConvTile") {
          // ConvTile<Loc, T, BufferSize, Layout, ConvTileShape<N1..>>: no rows x cols shape of its own.
          r.tile.conv = true;
          r.tile.rows = r.tile.cols = r.tile.valid_rows = r.tile.valid_cols = std::nullopt;
          TSNode shape = args.size() > 4 ? args[4] : TSNode{};
          if (!isNull(shape) && nodeType(shape) == "type_descriptor") shape = childByField(shape, "type");
          if (!isNull(shape) && nodeType(shape) == "qualified_identifier") shape = childByField(shape, "name");
          if (!isNull(shape) && nodeType(shape) == "template_type") {
            TSNode dims = childByField(shape, "arguments");
            for (uint32_t i = 0; !isNull(dims) && i < ts_node_named_child_count(dims); ++i) {
              auto v = evalInt(ts_node_named_child(dims, i), at);
              if (v && *v < 0) r.tile.conv_dynamic_shape = true;
            }
          }
        }
        return r;
      }
      if (name.starts_with("TileLeftScale")) return tileFromArgs(Loc::ScaleLeft, name, args, at);
      if (name.starts_with("TileRightScale")) return tileFromArgs(Loc::ScaleRight, name, args, at);
      if (name.starts_with("TileLeft")) return tileFromArgs(Loc::Left, name, args, at);
      if (name.starts_with("TileRight")) return tileFromArgs(Loc::Right, name, args, at);
      if (name.starts_with("TileAcc")) return tileFromArgs(Loc::Acc, name, args, at);
      if (name == "GlobalTensor") return Resolved{SymbolKind::GlobalTensor, {}};
      if (name == "Event") return Resolved{SymbolKind::Event, {}};
      if (const Alias* a = lookup(aliases_, name, at)) return Resolved{a->kind, a->tile};  // template alias
      return none;
    }
    return none;
  }

  // ---- guards ----
  // One branch condition of an #if chain.
  struct Branch {
    TSNode node{};
    bool ifdef = false, ifndef = false;  // #ifdef/#ifndef NAME (node = NAME); else an #if expression
  };

  Tri branchTruth(const Branch& br, Build b) const {
    if (br.ifdef) return macroDefined(b, txt(br.node));
    if (br.ifndef) return triNot(macroDefined(b, txt(br.node)));
    return evalCondition(tree_, br.node, b);
  }

  // Reach of a branch: the parent's, this condition true (when given) and every earlier one false.
  Reach branchReach(const Reach& parent, const Branch* self, const std::vector<Branch>& earlier) const {
    Reach r = parent;
    for (Build b : {Build::Auto, Build::Vec, Build::Cube}) {
      Tri v = self ? branchTruth(*self, b) : Tri::True;
      for (const Branch& e : earlier) v = triAnd(v, triNot(branchTruth(e, b)));
      Tri& slot = b == Build::Auto ? r.in_auto : b == Build::Vec ? r.on_vec : r.on_cube;
      slot = triAnd(slot, v);
    }
    return r;
  }

  void noteMacros(std::string_view condition_text) {
    if (containsWord(condition_text, "__PTO_AUTO__")) model_.mentions_pto_auto = true;
    for (std::string_view m : {"__DAV_VEC__", "__DAV_C220_VEC__", "__DAV_C310_VEC__"})
      if (containsWord(condition_text, m)) model_.mentions_vec_macro = true;
    for (std::string_view m : {"__DAV_CUBE__", "__DAV_C220_CUBE__", "__DAV_C310_CUBE__"})
      if (containsWord(condition_text, m)) model_.mentions_cube_macro = true;
  }

  // #if / #ifdef / #ifndef with their #elif / #else chains.
  void visitConditional(TSNode n, const Context& ctx) {
    std::vector<Branch> earlier;
    for (TSNode cur = n; !isNull(cur);) {
      std::string_view type = nodeType(cur);
      TSNode alternative = childByField(cur, "alternative");
      if (type == "preproc_else") {
        Context inner = ctx;
        inner.reach = branchReach(ctx.reach, nullptr, earlier);
        for (TSNode child : namedChildren(cur)) visit(child, inner);
        return;
      }
      Branch br;
      if (type == "preproc_ifdef" || type == "preproc_elifdef") {
        br.node = childByField(cur, "name");
        bool negate = txt(ts_node_child(cur, 0)).find("ndef") != std::string_view::npos;
        br.ifdef = !negate;
        br.ifndef = negate;
      } else {
        br.node = childByField(cur, "condition");
      }
      if (!isNull(br.node)) noteMacros(txt(br.node));
      Context inner = ctx;
      inner.reach = branchReach(ctx.reach, isNull(br.node) ? nullptr : &br, earlier);
      for (TSNode c : namedChildren(cur)) {
        if (ts_node_eq(c, br.node) || (!isNull(alternative) && ts_node_eq(c, alternative))) continue;
        visit(c, inner);
      }
      if (!isNull(br.node)) earlier.push_back(br);
      cur = alternative;
    }
  }

  // ---- declarations ----
  void addConstant(TSNode decl, TSNode declarator, TSNode value, const Context& ctx) {
    std::string_view q = txt(decl);
    bool is_constexpr = containsWord(q, "constexpr");
    if (!is_constexpr && !containsWord(q, "const")) return;
    auto v = evalInt(value, ts_node_start_byte(value));
    if (!v) {
      // constexpr (or const with a constant initializer) whose value depends on template parameters.
      if (is_constexpr || isConstantExpr(value, ts_node_start_byte(value)))
        constant_names_.push_back({std::string(txt(declarator)), ts_node_start_byte(decl), ctx.block_end});
      return;
    }
    constants_.push_back({std::string(txt(declarator)), *v, ts_node_start_byte(decl), ctx.block_end});
  }

  // Records that `name` is declared or written inside every loop enclosing `ctx`.
  void noteWrite(std::string_view name, const Context& ctx) {
    for (int l = ctx.loop; l >= 0; l = model_.loops[l].parent)
      if (!model_.loops[l].writes(name)) model_.loops[l].written.emplace_back(name);
  }

  void noteWrittenTarget(TSNode target, const Context& ctx) {
    while (!isNull(target) && (nodeType(target) == "subscript_expression" || nodeType(target) == "field_expression" ||
                               nodeType(target) == "parenthesized_expression" || nodeType(target) == "pointer_expression"))
      target = nodeType(target) == "parenthesized_expression" ? ts_node_named_child(target, 0)
                                                               : childByField(target, "argument");
    if (!isNull(target) && nodeType(target) == "identifier") noteWrite(txt(target), ctx);
  }

  // Unwraps reference/pointer/array declarators down to the identifier.
  TSNode declaredName(TSNode d, bool& ref, bool& ptr, bool& arr) const {
    while (!isNull(d)) {
      std::string_view t = nodeType(d);
      if (t == "identifier" || t == "field_identifier") return d;
      if (t == "reference_declarator") ref = true;
      else if (t == "pointer_declarator") ptr = true;
      else if (t == "array_declarator") arr = true;
      // `G g(x);` inside a body is a constructor call the grammar reads as a function declarator.
      else if (t != "init_declarator" && t != "parenthesized_declarator" && t != "function_declarator") return TSNode{};
      TSNode next = childByField(d, "declarator");
      if (isNull(next)) next = ts_node_named_child(d, 0);
      if (t == "reference_declarator") next = ts_node_named_child(d, 0);
      d = next;
    }
    return TSNode{};
  }

  // Product of the sizes of every array dimension in a declarator (`t[2][4]` -> 8); nullopt when one is not
  // a constant expression.
  std::optional<std::int64_t> arrayElements(TSNode d, std::uint32_t at) const {
    std::int64_t n = 1;
    bool any = false;
    while (!isNull(d)) {
      std::string_view t = nodeType(d);
      if (t == "identifier" || t == "field_identifier") break;
      if (t == "array_declarator") {
        auto size = evalInt(childByField(d, "size"), at);
        if (!size || *size <= 0) return std::nullopt;
        n *= *size;
        any = true;
      }
      TSNode next = childByField(d, "declarator");
      if (isNull(next)) next = ts_node_named_child(d, 0);
      if (isNull(next) || ts_node_eq(next, d)) break;
      d = next;
    }
    return any ? std::optional<std::int64_t>(n) : std::nullopt;
  }

  int addSymbol(TSNode type_node, TSNode declarator, const Context& ctx, bool is_param, std::uint32_t scope_begin,
                std::uint32_t scope_end, TSNode whole) {
    bool ref = false, ptr = false, arr = false;
    TSNode name = declaredName(declarator, ref, ptr, arr);
    if (isNull(name)) return -1;
    Symbol s;
    s.name = std::string(txt(name));
    s.type_text = std::string(original(type_node));
    s.is_param = is_param;
    s.by_reference = ref;
    s.by_pointer = ptr;
    s.is_array = arr;
    if (arr) s.array_elements = arrayElements(declarator, scope_begin);
    s.function = ctx.function;
    s.scope_begin = scope_begin;
    s.scope_end = scope_end;
    s.pos = pos(name);
    s.loop_depth = ctx.loop_depth;
    s.reach = ctx.reach;
    Resolved r = resolveType(type_node, ts_node_start_byte(type_node));
    s.kind = r.kind;
    s.tile = r.tile;
    if (ptr && s.kind != SymbolKind::Tile && containsWord(withLeadingQualifiers(whole), "__gm__"))
      s.kind = SymbolKind::GmPointer;
    if (ptr && s.kind == SymbolKind::GlobalTensor) s.kind = SymbolKind::Other;
    if (nodeType(declarator) == "init_declarator") {
      TSNode value = childByField(declarator, "value");
      if (!isNull(value) && nodeType(value) == "argument_list" && ts_node_named_child_count(value) == 1)
        value = ts_node_named_child(value, 0);
      if (!isNull(value) && nodeType(value) == "identifier") s.copied_from = std::string(txt(value));
    }
    noteWrite(s.name, ctx);
    model_.symbols.push_back(std::move(s));
    return static_cast<int>(model_.symbols.size()) - 1;
  }

  void visitDeclaration(TSNode n, const Context& ctx) {
    TSNode type_node = childByField(n, "type");
    std::string_view whole = original(n);
    if (!isNull(type_node) && nodeType(type_node) == "template_type" &&
        afterScope(txt(childByField(type_node, "name"))) == "Event")
      model_.event_types.push_back({"Event", pos(type_node), ctx.function, ctx.reach});
    for (TSNode d : childrenByField(n, "declarator")) {
      int idx = addSymbol(type_node, d, ctx, false, ts_node_start_byte(d), ctx.block_end, n);
      if (nodeType(d) == "init_declarator") {
        TSNode value = childByField(d, "value");
        if (idx >= 0) addConstant(n, childByField(d, "declarator"), value, ctx);
        if (!isNull(value)) visit(value, ctx);
      }
    }
    (void)whole;
  }

  void visitAlias(TSNode n, const Context& ctx) {
    Alias a;
    a.name = std::string(txt(childByField(n, "name")));
    Resolved r = resolveType(childByField(n, "type"), ts_node_start_byte(n));
    a.kind = r.kind;
    a.tile = r.tile;
    a.scope_begin = ts_node_start_byte(n);
    a.scope_end = ctx.block_end;
    aliases_.push_back(std::move(a));
  }

  void visitTypedef(TSNode n, const Context& ctx) {
    TSNode type_node = childByField(n, "type");
    Resolved r = resolveType(type_node, ts_node_start_byte(n));
    for (TSNode d : childrenByField(n, "declarator")) {
      Alias a;
      a.name = std::string(txt(d));
      a.kind = r.kind;
      a.tile = r.tile;
      a.scope_begin = ts_node_start_byte(n);
      a.scope_end = ctx.block_end;
      aliases_.push_back(std::move(a));
    }
  }

  void visitFunction(TSNode n, const Context& ctx) {
    TSNode decl = childByField(n, "declarator");
    while (!isNull(decl) && nodeType(decl) != "function_declarator") {
      TSNode next = childByField(decl, "declarator");
      if (isNull(next)) next = ts_node_named_child(decl, 0);
      if (ts_node_eq(next, decl)) break;
      decl = next;
    }
    TSNode body = childByField(n, "body");
    if (isNull(decl) || isNull(body)) {
      visitChildren(n, ctx);
      return;
    }
    Function f;
    TSNode name = childByField(decl, "declarator");
    f.name = std::string(afterScope(txt(name)));
    // The blanked qualifiers (__tf__, __global__) sit before the node's first token: read the original text
    // from the end of the previous sibling (a template parameter list, the previous declaration).
    TSNode prev = ts_node_prev_sibling(n);
    TSNode parent = ts_node_parent(n);
    std::uint32_t head_begin = !isNull(prev) ? ts_node_end_byte(prev) : !isNull(parent) ? ts_node_start_byte(parent) : 0;
    head_begin = std::min(head_begin, ts_node_start_byte(n));
    std::string_view head = std::string_view(file_.text).substr(head_begin, ts_node_start_byte(decl) - head_begin);
    f.tile_function = containsWord(head, "__tf__");
    f.entry = containsWord(head, "__global__");
    f.aicore = containsWord(head, "AICORE") || containsWord(head, "__aicore__");
    f.return_type = squeeze(txt(childByField(n, "type")));
    f.pos = pos(name);
    f.body_begin = ts_node_start_byte(body);
    f.body_end = ts_node_end_byte(body);
    f.reach = ctx.reach;
    model_.functions.push_back(f);
    int index = static_cast<int>(model_.functions.size()) - 1;
    Context inner = ctx;
    inner.function = index;
    inner.loop_depth = 0;
    inner.loop = -1;
    inner.block_begin = f.body_begin;
    inner.block_end = f.body_end;
    TSNode params = childByField(decl, "parameters");
    for (uint32_t i = 0; !isNull(params) && i < ts_node_named_child_count(params); ++i) {
      TSNode p = ts_node_named_child(params, i);
      std::string_view pt = nodeType(p);
      if (pt != "parameter_declaration" && pt != "optional_parameter_declaration") continue;
      int s = addSymbol(childByField(p, "type"), childByField(p, "declarator"), inner, true, f.body_begin, f.body_end, p);
      if (s >= 0) model_.functions[index].params.push_back(s);
    }
    visit(body, inner);
  }

  void visitRecord(TSNode n, const Context& ctx) {
    TSNode body = childByField(n, "body");
    if (isNull(body)) return;
    Record r;
    r.name = std::string(txt(childByField(n, "name")));
    r.pos = pos(n);
    r.reach = ctx.reach;
    for (TSNode c : namedChildren(body)) {
      std::string_view ct = nodeType(c);
      if (ct == "field_declaration") {
        if (containsWord(txt(c), "static")) continue;  // static constexpr members are constants, not fields
        TSNode d = childByField(c, "declarator");
        if (isNull(d)) continue;
        bool ref = false, ptr = false, arr = false;
        TSNode name = declaredName(d, ref, ptr, arr);
        Field f;
        f.name = std::string(isNull(name) ? txt(d) : txt(name));
        f.has_default = !isNull(childByField(c, "default_value"));
        f.pos = pos(isNull(name) ? d : name);
        r.fields.push_back(f);
      } else if (ct == "function_definition" || ct == "template_declaration") {
        visit(c, ctx);
      }
    }
    model_.records.push_back(std::move(r));
  }

  // ---- expressions ----
  Operand operand(TSNode n, std::uint32_t at) const {
    Operand o;
    o.text = std::string(original(n));
    o.pos = pos(n);
    TSNode base = n;
    while (!isNull(base) && (nodeType(base) == "subscript_expression" || nodeType(base) == "parenthesized_expression")) {
      if (nodeType(base) == "subscript_expression") {
        o.subscripted = true;
        TSNode indices = childByField(base, "indices");
        for (uint32_t i = 0; !isNull(indices) && i < ts_node_named_child_count(indices); ++i)
          if (!isConstantExpr(ts_node_named_child(indices, i), at)) o.constant_index = false;
      }
      base = nodeType(base) == "subscript_expression" ? childByField(base, "argument") : ts_node_named_child(base, 0);
    }
    if (!isNull(base) && nodeType(base) == "identifier") {
      o.base = std::string(txt(base));
      o.symbol = lookupSymbol(o.base, at);
    }
    return o;
  }

  std::string methodContext(TSNode call) const {
    TSNode parent = ts_node_parent(call);
    if (isNull(parent)) return "other";
    std::string_view pt = nodeType(parent);
    if (pt == "argument_list") return "argument";
    if (pt == "init_declarator") {
      TSNode d = childByField(parent, "declarator");
      return !isNull(d) && nodeType(d) == "reference_declarator" ? "bind-ref" : "bind-copy";
    }
    return "other";
  }

  void visitCall(TSNode n, const Context& ctx) {
    TSNode fn = childByField(n, "function");
    Call c;
    c.pos = pos(n);
    c.function = ctx.function;
    c.reach = ctx.reach;
    c.loop_depth = ctx.loop_depth;
    c.block_begin = ctx.block_begin;
    c.block_end = ctx.block_end;
    c.loop = ctx.loop;
    c.multibuffered = ctx.multibuffered;
    std::uint32_t at = ts_node_start_byte(n);
    TSNode callee = fn;
    bool qualified_pto = true;
    if (!isNull(callee) && nodeType(callee) == "qualified_identifier") {
      // The whole scope: `pto::comm::TSCATTER` is the collective, not the tile instruction pto::TSCATTER.
      std::string scope;
      while (!isNull(callee) && nodeType(callee) == "qualified_identifier") {
        std::string_view part = txt(childByField(callee, "scope"));
        scope += (scope.empty() ? "" : "::") + std::string(part);
        callee = childByField(callee, "name");
      }
      qualified_pto = scope == "pto" || scope.empty();
    }
    if (!isNull(callee) && nodeType(callee) == "template_function") {
      c.template_args = squeeze(txt(childByField(callee, "arguments")));
      if (c.template_args.size() >= 2) c.template_args = c.template_args.substr(1, c.template_args.size() - 2);
      callee = childByField(callee, "name");
    }
    if (!isNull(callee) && nodeType(callee) == "field_expression") {
      TSNode field = childByField(callee, "field");
      if (!isNull(field) && nodeType(field) == "template_method") {  // db.loop<Range<N>>(...)
        c.template_args = squeeze(txt(childByField(field, "arguments")));
        if (c.template_args.size() >= 2) c.template_args = c.template_args.substr(1, c.template_args.size() - 2);
        field = childByField(field, "name");
      }
      c.name = std::string(afterScope(txt(field)));
      Operand obj = operand(childByField(callee, "argument"), at);
      c.object = obj.base;
      c.object_symbol = obj.symbol;
      c.context = methodContext(n);
    } else if (!isNull(callee)) {
      c.name = std::string(afterScope(txt(callee)));
      if (qualified_pto) c.instruction = findInstruction(c.name);
    }
    TSNode args = childByField(n, "arguments");
    for (uint32_t i = 0; !isNull(args) && i < ts_node_named_child_count(args); ++i) {
      TSNode a = ts_node_named_child(args, i);
      if (nodeType(a) == "comment") continue;
      c.args.push_back(operand(a, ts_node_start_byte(a)));
    }
    // pto_auto::MultiBuffered<N>::loop<Range<K>>([&](auto ctx) {...}): the sanctioned multi-buffering.
    Context inner = ctx;
    if (!c.object.empty() && c.name == "loop") inner.multibuffered = true;
    if (!c.name.empty()) model_.calls.push_back(std::move(c));
    visitChildren(n, inner);
  }

  void visitAssignment(TSNode n, const Context& ctx) {
    TSNode l = childByField(n, "left"), r = childByField(n, "right");
    std::string_view op = txt(childByField(n, "operator"));
    noteWrittenTarget(l, ctx);
    if (op == "=" && !isNull(l) && !isNull(r) && nodeType(l) == "identifier" && nodeType(r) == "identifier") {
      Assignment a;
      a.left = std::string(txt(l));
      a.right = std::string(txt(r));
      a.left_symbol = lookupSymbol(a.left, ts_node_start_byte(n));
      a.right_symbol = lookupSymbol(a.right, ts_node_start_byte(n));
      a.pos = pos(n);
      a.function = ctx.function;
      a.reach = ctx.reach;
      model_.assignments.push_back(a);
    }
    visitChildren(n, ctx);
  }

  void noteGmAccess(TSNode target, GmAccessKind kind, TSNode at_node, const Context& ctx) {
    if (isNull(target) || nodeType(target) != "identifier") return;
    int s = lookupSymbol(txt(target), ts_node_start_byte(target));
    if (s < 0) return;
    const Symbol& sym = model_.symbols[s];
    // `Global tensors[N]; tensors[i] = Global(...)` picks a tensor object out of an array, not an element.
    if (sym.is_array && kind == GmAccessKind::Subscript) return;
    // 64-bit integer GM parameters are argument blocks and addresses (`__gm__ int64_t* args`), not tensors.
    std::string pointee = normaliseDtype(squeeze(sym.type_text));
    bool arg_block = pointee == "int64_t" || pointee == "uint64_t";
    bool gm_param = sym.kind == SymbolKind::GmPointer && sym.is_param && !arg_block;
    if (!gm_param && sym.kind != SymbolKind::GlobalTensor) return;
    model_.gm_accesses.push_back({sym.name, s, kind, pos(at_node), ctx.function, ctx.reach});
  }

  void visitLambda(TSNode n, const Context& ctx) {
    TSNode caps = childByField(n, "captures");
    std::string c = isNull(caps) ? "" : squeeze(txt(caps));
    bool copy_default = c.find('=') != std::string::npos;
    TSNode body = childByField(n, "body");
    if (!isNull(body)) {
      std::uint32_t begin = ts_node_start_byte(n);
      Lambda l;
      l.pos = pos(n);
      l.function = ctx.function;
      l.reach = ctx.reach;
      // Tiles named in the body and declared outside the lambda are copied when captured by value.
      std::vector<TSNode> stack{body};
      while (!stack.empty()) {
        TSNode x = stack.back();
        stack.pop_back();
        if (nodeType(x) == "identifier") {
          int s = lookupSymbol(txt(x), begin);
          if (s >= 0 && model_.symbols[s].kind == SymbolKind::Tile && model_.symbols[s].scope_begin < begin) {
            std::string name = model_.symbols[s].name;
            bool explicit_copy = c.find("&" + name) == std::string::npos && containsWord(c, name);
            if ((copy_default && !containsWord(c, "&" + name)) || explicit_copy)
              if (std::find(l.copied_tiles.begin(), l.copied_tiles.end(), s) == l.copied_tiles.end())
                l.copied_tiles.push_back(s);
          }
        }
        for (TSNode child : namedChildren(x)) stack.push_back(child);
      }
      if (!l.copied_tiles.empty()) model_.lambdas.push_back(std::move(l));
      Context inner = ctx;
      inner.block_begin = ts_node_start_byte(body);
      inner.block_end = ts_node_end_byte(body);
      TSNode decl = childByField(n, "declarator");
      TSNode params = isNull(decl) ? TSNode{} : childByField(decl, "parameters");
      for (uint32_t i = 0; !isNull(params) && i < ts_node_named_child_count(params); ++i) {
        TSNode p = ts_node_named_child(params, i);
        if (nodeType(p) == "parameter_declaration")
          addSymbol(childByField(p, "type"), childByField(p, "declarator"), inner, true, inner.block_begin,
                    inner.block_end, p);
      }
      visit(body, inner);
    }
  }

  // `if constexpr (DAV_CUBE)` / `(DAV_VEC)`: the pto-isa kernels' C++ form of the core guards.
  void visitIf(TSNode n, const Context& ctx) {
    bool is_constexpr = false;
    for (uint32_t i = 0; i < ts_node_child_count(n); ++i)
      if (nodeType(ts_node_child(n, i)) == "constexpr") is_constexpr = true;
    TSNode cond = childByField(n, "condition");
    TSNode value = isNull(cond) ? TSNode{} : childByField(cond, "value");
    bool negated = false;
    if (!isNull(value) && nodeType(value) == "unary_expression" && txt(childByField(value, "operator")) == "!") {
      negated = true;
      value = childByField(value, "argument");
    }
    Context then_ctx = ctx, else_ctx = ctx;
    if (is_constexpr && !isNull(value) && nodeType(value) == "identifier") {
      std::string up;
      for (char ch : txt(value)) up += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      bool cube = up.find("CUBE") != std::string::npos, vec = up.find("VEC") != std::string::npos;
      if (cube != vec) {
        Context& only_cube = negated ? else_ctx : then_ctx;
        Context& not_cube = negated ? then_ctx : else_ctx;
        if (cube) {
          only_cube.reach.on_vec = Tri::False;
          not_cube.reach.on_cube = Tri::False;
        } else {
          only_cube.reach.on_cube = Tri::False;  // here: only the vector core
          not_cube.reach.on_vec = Tri::False;
        }
      }
    }
    recordIf(n, cond, is_constexpr, ctx);
    if (!isNull(cond)) visit(cond, ctx);
    TSNode cons = childByField(n, "consequence"), alt = childByField(n, "alternative");
    if (!isNull(cons)) visit(cons, then_ctx);
    if (!isNull(alt)) visit(alt, else_ctx);
  }

  // Identifiers an expression reads (callee names and field names excluded), and its comparisons.
  void scanCondition(TSNode n, std::uint32_t at, IfStatement& out) const {
    if (isNull(n)) return;
    std::string_view type = nodeType(n);
    if (type == "identifier") {
      std::string name(txt(n));
      if (std::find(out.condition_names.begin(), out.condition_names.end(), name) == out.condition_names.end())
        out.condition_names.push_back(name);
      return;
    }
    if (type == "call_expression") {
      TSNode fn = childByField(n, "function");
      if (!isNull(fn) && nodeType(fn) == "field_expression") scanCondition(childByField(fn, "argument"), at, out);
      scanCondition(childByField(n, "arguments"), at, out);
      return;
    }
    if (type == "field_expression") return scanCondition(childByField(n, "argument"), at, out);
    if (type == "lambda_expression" || type == "string_literal") return;
    if (type == "binary_expression") {
      std::string op(txt(childByField(n, "operator")));
      if (op == "&&" || op == "||" || op == "and" || op == "or") out.compound = true;
      if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") {
        TSNode l = childByField(n, "left"), r = childByField(n, "right");
        Comparison c;
        c.op = op;
        if (!isNull(l) && nodeType(l) == "identifier") c.left = std::string(txt(l));
        if (!isNull(r) && nodeType(r) == "identifier") c.right = std::string(txt(r));
        c.left_constant = isConstantExpr(l, at);
        c.right_constant = isConstantExpr(r, at);
        c.left_text = isNull(l) ? "" : std::string(original(l));
        c.right_text = isNull(r) ? "" : std::string(original(r));
        out.comparisons.push_back(std::move(c));
      }
    }
    for (TSNode child : namedChildren(n)) scanCondition(child, at, out);
  }

  void recordIf(TSNode n, TSNode cond, bool is_constexpr, const Context& ctx) {
    IfStatement s;
    s.is_constexpr = is_constexpr;
    s.begin = ts_node_start_byte(n);
    s.end = ts_node_end_byte(n);
    TSNode cons = childByField(n, "consequence");
    s.body_begin = isNull(cons) ? s.end : ts_node_start_byte(cons);
    s.loop = ctx.loop;
    s.function = ctx.function;
    s.pos = pos(n);
    s.reach = ctx.reach;
    if (!isNull(cond)) {
      TSNode value = childByField(cond, "value");
      if (isNull(value)) value = cond;
      s.condition_text = std::string(original(value));
      scanCondition(value, ts_node_start_byte(value), s);
    }
    model_.ifs.push_back(std::move(s));
  }

  void visitLoop(TSNode n, const Context& ctx) {
    Loop loop;
    loop.begin = ts_node_start_byte(n);
    loop.end = ts_node_end_byte(n);
    loop.parent = ctx.loop;
    loop.function = ctx.function;
    loop.pos = pos(n);
    loop.reach = ctx.reach;
    std::string_view type = nodeType(n);
    if (type == "for_statement") {
      TSNode init = childByField(n, "initializer");
      if (!isNull(init) && nodeType(init) == "declaration") {
        for (TSNode d : childrenByField(init, "declarator")) {
          bool ref = false, ptr = false, arr = false;
          TSNode name = declaredName(d, ref, ptr, arr);
          if (!isNull(name)) loop.induction.emplace_back(txt(name));
        }
      } else if (!isNull(init) && nodeType(init) == "assignment_expression") {
        TSNode l = childByField(init, "left");
        if (!isNull(l) && nodeType(l) == "identifier") loop.induction.emplace_back(txt(l));
      }
    } else if (type == "for_range_loop") {
      bool ref = false, ptr = false, arr = false;
      TSNode name = declaredName(childByField(n, "declarator"), ref, ptr, arr);
      if (!isNull(name)) loop.induction.emplace_back(txt(name));
    }
    TSNode condition = type == "for_statement" ? childByField(n, "condition") : TSNode{};
    if (!isNull(condition)) {
      IfStatement scan;
      scanCondition(condition, ts_node_start_byte(condition), scan);
      for (std::string& name : scan.condition_names)
        if (std::find(loop.induction.begin(), loop.induction.end(), name) == loop.induction.end())
          loop.bound.push_back(std::move(name));
    }
    loop.written = loop.induction;
    model_.loops.push_back(std::move(loop));
    Context inner = ctx;
    inner.loop_depth++;
    inner.loop = static_cast<int>(model_.loops.size()) - 1;
    inner.block_begin = ts_node_start_byte(n);
    inner.block_end = ts_node_end_byte(n);
    visitChildren(n, inner);
  }

  // Non-type template parameters are compile-time constants in the template's body.
  void noteTemplateParameters(TSNode n, const Context& ctx) {
    TSNode params = childByField(n, "parameters");
    for (uint32_t i = 0; !isNull(params) && i < ts_node_named_child_count(params); ++i) {
      TSNode p = ts_node_named_child(params, i);
      std::string_view pt = nodeType(p);
      if (pt != "parameter_declaration" && pt != "optional_parameter_declaration" &&
          pt != "variadic_parameter_declaration")
        continue;
      bool ref = false, ptr = false, arr = false;
      TSNode name = declaredName(childByField(p, "declarator"), ref, ptr, arr);
      if (!isNull(name)) constant_names_.push_back({std::string(txt(name)), ts_node_start_byte(n), ts_node_end_byte(n)});
    }
    (void)ctx;
  }

  // Nesting deeper than any kernel (20000 parentheses from a fuzzer or a generator) is not walked:
  // recursing into it overflowed the stack (found by BadInput.DeepNestingIsWherePythonStopsNotACrash).
  static constexpr int kMaxVisitDepth = 1000;
  int visit_depth_ = 0;

  void visitChildren(TSNode n, const Context& ctx) {
    if (visit_depth_ >= kMaxVisitDepth) return;
    ++visit_depth_;
    for (TSNode child : namedChildren(n)) visit(child, ctx);
    --visit_depth_;
  }

  // Whether the file programs against PTO-ISA: pto/ headers, the pto namespace.
  void noteInclude(TSNode path) {
    std::string_view p = txt(path);
    if (p.size() >= 2) p = p.substr(1, p.size() - 2);  // <...> or "..."
    if (p.starts_with("pto/")) model_.includes_pto = true;
  }

  void noteNamespace(TSNode n) {
    std::string_view name = txt(n);
    if (nodeType(n) == "using_declaration") {  // using namespace pto; (tree-sitter: `namespace` then the name)
      if (name.find("namespace") == std::string_view::npos) return;
      name = afterScope(txt(ts_node_named_child(n, ts_node_named_child_count(n) - 1)));
    }
    if (name == "pto") model_.names_pto = true;
  }

  void visit(TSNode n, const Context& ctx) {
    std::string_view type = nodeType(n);
    if (type == "preproc_if" || type == "preproc_ifdef") return visitConditional(n, ctx);
    if (type == "function_definition") return visitFunction(n, ctx);
    if (type == "struct_specifier" || type == "class_specifier") return visitRecord(n, ctx);
    if (type == "alias_declaration") return visitAlias(n, ctx);
    if (type == "type_definition") return visitTypedef(n, ctx);
    if (type == "declaration") return visitDeclaration(n, ctx);
    if (type == "call_expression") return visitCall(n, ctx);
    if (type == "assignment_expression") return visitAssignment(n, ctx);
    if (type == "lambda_expression") return visitLambda(n, ctx);
    if (type == "template_declaration") noteTemplateParameters(n, ctx);
    if (type == "update_expression") noteWrittenTarget(childByField(n, "argument"), ctx);
    if (type == "if_statement") return visitIf(n, ctx);
    if (type == "for_statement" || type == "for_range_loop" || type == "while_statement" || type == "do_statement")
      return visitLoop(n, ctx);
    if (type == "compound_statement") {
      Context inner = ctx;
      inner.block_begin = ts_node_start_byte(n);
      inner.block_end = ts_node_end_byte(n);
      return visitChildren(n, inner);
    }
    if (type == "subscript_expression") noteGmAccess(childByField(n, "argument"), GmAccessKind::Subscript, n, ctx);
    if (type == "pointer_expression" && txt(childByField(n, "operator")) == "*")
      noteGmAccess(childByField(n, "argument"), GmAccessKind::Dereference, n, ctx);
    if (type == "preproc_include") return noteInclude(childByField(n, "path"));
    if (type == "namespace_identifier" || type == "using_declaration") noteNamespace(n);
    if (type == "template_type" && afterScope(txt(childByField(n, "name"))) == "Event")
      model_.event_types.push_back({"Event", pos(n), ctx.function, ctx.reach});
    if (type == "preproc_def" || type == "preproc_function_def" || type == "comment" || type == "string_literal")
      return;
    visitChildren(n, ctx);
  }
};

}  // namespace

KernelModel buildModel(const SourceFile& file, const SyntaxTree& tree) {
  if (!tree.ok()) return {};
  return Builder(file, tree).build();
}

}  // namespace portcheck::kernel
