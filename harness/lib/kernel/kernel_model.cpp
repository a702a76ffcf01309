// The kernel model's walk: buildModel() visits the tree of one kernel file and dispatches each node to
// the part that reads it (kernel_model_internal.h lists them); positions, original text and symbol
// lookup are here.
#include "kernel/kernel_model.h"

#include <algorithm>

#include "kernel/kernel_model_internal.h"

namespace portcheck::kernel {

bool Loop::writes(std::string_view name) const {
  return std::find(written.begin(), written.end(), name) != written.end();
}

Loc KernelModel::locOf(const Operand& o) const {
  const Symbol* s = symbolOf(o);
  return s && s->kind == SymbolKind::Tile ? s->tile.loc : Loc::Unknown;
}

namespace detail {

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

std::string_view Builder::original(TSNode n) const {
  if (isNull(n)) return {};  // a declaration without a type (found by fuzz_kernel_model)
  std::uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return e <= file_.text.size() && b <= e ? std::string_view(file_.text).substr(b, e - b) : std::string_view();
}

// The original text of `n` including the blanked CCE qualifiers before its first token (`__gm__ float* x`).
std::string_view Builder::withLeadingQualifiers(TSNode n) const {
  TSNode prev = ts_node_prev_sibling(n);
  TSNode parent = ts_node_parent(n);
  std::uint32_t b = !isNull(prev) ? ts_node_end_byte(prev) : !isNull(parent) ? ts_node_start_byte(parent) : 0;
  std::uint32_t e = ts_node_end_byte(n);
  b = std::min(b, ts_node_start_byte(n));
  return e <= file_.text.size() ? std::string_view(file_.text).substr(b, e - b) : std::string_view();
}

Position Builder::pos(TSNode n) const {
  Position p;
  p.byte = ts_node_start_byte(n);
  auto [line, col] = file_.position(p.byte);
  p.line = line;
  p.column = col;
  return p;
}

int Builder::lookupSymbol(std::string_view name, std::uint32_t at) const {
  for (int i = static_cast<int>(model_.symbols.size()) - 1; i >= 0; --i) {
    const Symbol& s = model_.symbols[i];
    if (s.name == name && s.scope_begin <= at && at < s.scope_end) return i;
  }
  return -1;
}

void Builder::visitChildren(TSNode n, const Context& ctx) {
  if (visit_depth_ >= kMaxVisitDepth) return;
  ++visit_depth_;
  for (TSNode child : namedChildren(n)) visit(child, ctx);
  --visit_depth_;
}

// Whether the file programs against PTO-ISA: pto/ headers, the pto namespace.
void Builder::noteInclude(TSNode path) {
  std::string_view p = txt(path);
  if (p.size() >= 2) p = p.substr(1, p.size() - 2);  // <...> or "..."
  if (p.starts_with("pto/")) model_.includes_pto = true;
}

void Builder::noteNamespace(TSNode n) {
  std::string_view name = txt(n);
  if (nodeType(n) == "using_declaration") {  // using namespace pto; (tree-sitter: `namespace` then the name)
    if (name.find("namespace") == std::string_view::npos) return;
    name = afterScope(txt(ts_node_named_child(n, ts_node_named_child_count(n) - 1)));
  }
  if (name == "pto") model_.names_pto = true;
}

void Builder::visit(TSNode n, const Context& ctx) {
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

}  // namespace detail

KernelModel buildModel(const SourceFile& file, const SyntaxTree& tree) {
  if (!tree.ok()) return {};
  return detail::Builder(file, tree).build();
}

}  // namespace portcheck::kernel
