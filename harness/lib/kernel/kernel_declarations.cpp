// Declarations: the symbols they declare (with their types and the builds that see them), constexpr
// constants, `using` and typedef aliases, functions with their parameters, records with their fields,
// template parameters, and the names each loop writes.
#include "kernel/kernel_model_internal.h"

#include "kernel/kernel_source.h"

namespace portcheck::kernel::detail {

void Builder::addConstant(TSNode decl, TSNode declarator, TSNode value, const Context& ctx) {
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
void Builder::noteWrite(std::string_view name, const Context& ctx) {
  for (int l = ctx.loop; l >= 0; l = model_.loops[l].parent)
    if (!model_.loops[l].writes(name)) model_.loops[l].written.emplace_back(name);
}

void Builder::noteWrittenTarget(TSNode target, const Context& ctx) {
  while (!isNull(target) && (nodeType(target) == "subscript_expression" || nodeType(target) == "field_expression" ||
                             nodeType(target) == "parenthesized_expression" || nodeType(target) == "pointer_expression"))
    target = nodeType(target) == "parenthesized_expression" ? ts_node_named_child(target, 0)
                                                             : childByField(target, "argument");
  if (!isNull(target) && nodeType(target) == "identifier") noteWrite(txt(target), ctx);
}

// Unwraps reference/pointer/array declarators down to the identifier.
TSNode Builder::declaredName(TSNode d, bool& ref, bool& ptr, bool& arr) const {
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
std::optional<std::int64_t> Builder::arrayElements(TSNode d, std::uint32_t at) const {
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

int Builder::addSymbol(TSNode type_node, TSNode declarator, const Context& ctx, bool is_param,
                       std::uint32_t scope_begin, std::uint32_t scope_end, TSNode whole) {
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

void Builder::visitDeclaration(TSNode n, const Context& ctx) {
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

// An alias `name` of the type `r`, declared by `decl`, in scope to the end of the block.
void Builder::addAlias(std::string_view name, const Resolved& r, TSNode decl, const Context& ctx) {
  Alias a;
  a.name = std::string(name);
  a.kind = r.kind;
  a.tile = r.tile;
  a.scope_begin = ts_node_start_byte(decl);
  a.scope_end = ctx.block_end;
  aliases_.push_back(std::move(a));
}

void Builder::visitAlias(TSNode n, const Context& ctx) {
  TSNode name = childByField(n, "name");
  addAlias(txt(name), resolveType(childByField(n, "type"), ts_node_start_byte(n)), n, ctx);
}

void Builder::visitTypedef(TSNode n, const Context& ctx) {
  TSNode type_node = childByField(n, "type");
  Resolved r = resolveType(type_node, ts_node_start_byte(n));
  for (TSNode d : childrenByField(n, "declarator")) addAlias(txt(d), r, n, ctx);
}

void Builder::visitFunction(TSNode n, const Context& ctx) {
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

void Builder::visitRecord(TSNode n, const Context& ctx) {
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

// Non-type template parameters are compile-time constants in the template's body.
void Builder::noteTemplateParameters(TSNode n, const Context& ctx) {
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

}  // namespace portcheck::kernel::detail
