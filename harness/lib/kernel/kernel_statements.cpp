// Code inside functions: calls with their operands (PTO instructions, methods, sync calls), plain
// assignments, raw GM accesses, lambdas capturing tiles by copy, ifs (`if constexpr` core guards and the
// comparisons a condition makes) and loops with their induction and bound names.
#include "kernel/kernel_model_internal.h"

#include <algorithm>
#include <cctype>
#include "kernel/kernel_source.h"

namespace portcheck::kernel::detail {

Operand Builder::operand(TSNode n, std::uint32_t at) const {
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

std::string Builder::methodContext(TSNode call) const {
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

void Builder::visitCall(TSNode n, const Context& ctx) {
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

void Builder::visitAssignment(TSNode n, const Context& ctx) {
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

void Builder::noteGmAccess(TSNode target, GmAccessKind kind, TSNode at_node, const Context& ctx) {
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

void Builder::visitLambda(TSNode n, const Context& ctx) {
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
void Builder::visitIf(TSNode n, const Context& ctx) {
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
void Builder::scanCondition(TSNode n, std::uint32_t at, IfStatement& out) const {
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

void Builder::recordIf(TSNode n, TSNode cond, bool is_constexpr, const Context& ctx) {
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

void Builder::visitLoop(TSNode n, const Context& ctx) {
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

}  // namespace portcheck::kernel::detail
