// C++ incore kernel linter entry: parses the kernel with tree-sitter, reports syntax errors (ISA001),
// builds the kernel model, runs every AUTO and ISA check, and honours `// port-check: ignore[ID]` comments
// through the shared suppression machinery (lint/suppression.h), reporting unknown (ISA012) and unused
// (ISA013) suppressions.
#include "kernel/kernel_model.h"
#include "kernel/kernel_source.h"
#include "lint/kernel/kernel_check.h"
#include "lint/linters.h"
#include "lint/suppression.h"
#include "parse/syntax_tree.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// Every ERROR and MISSING node, outermost first in source order (the children of an ERROR are not visited).
std::vector<TSNode> errorNodes(const SyntaxTree& tree) {
  std::vector<TSNode> out;
  std::vector<TSNode> stack{tree.root()};
  while (!stack.empty() && out.size() < 64) {
    TSNode n = stack.back();
    stack.pop_back();
    if (nodeType(n) == "ERROR" || ts_node_is_missing(n)) {
      out.push_back(n);
      continue;
    }
    if (!ts_node_has_error(n)) continue;
    for (uint32_t i = ts_node_child_count(n); i-- > 0;) stack.push_back(ts_node_child(n, i));
  }
  return out;
}

// The function holding `err` (its outermost function_definition, with its template head), else the scope body
// the error sits in directly (a namespace's declaration list), else the error itself at file level.
TSNode enclosingUnit(TSNode err) {
  TSNode unit{};
  for (TSNode n = ts_node_parent(err); !isNull(n); n = ts_node_parent(n)) {
    std::string_view t = nodeType(n);
    if (t == "function_definition") {
      unit = n;
      TSNode p = ts_node_parent(n);
      if (!isNull(p) && nodeType(p) == "template_declaration") unit = p;
    }
  }
  if (!isNull(unit)) return unit;
  TSNode p = ts_node_parent(err);
  // Not a whole-file #if block: its own directive lines would explain every error in the file.
  if (!isNull(p) && nodeType(p) != "translation_unit" && !nodeType(p).starts_with("preproc_")) return p;
  return err;
}

}  // namespace

std::vector<Diagnostic> lintKernelFile(const SourceFile& f, const LintSettings& settings) {
  std::vector<Diagnostic> out;
  std::string parseable = kernel::parseableText(f.text);
  SyntaxTree tree = SyntaxTree::parse(Language::Cpp, parseable);
  if (!tree.ok()) {
    out.push_back(makeDiagnostic("ISA001", f.path, 1, 1, "the file could not be parsed in time"));
    return out;
  }
  // The first grammar error the preprocessor cannot explain (macros and #if branches are not expanded here).
  if (tree.hasError()) {
    for (TSNode err : errorNodes(tree)) {
      std::uint32_t b = ts_node_start_byte(err), e = ts_node_end_byte(err);
      TSNode unit = enclosingUnit(err);
      // Once the preprocessor explains one error, later ones are taken as its cascade (error recovery after a
      // macro-built initializer or an unbalanced #if branch runs on for many lines); the compile check sees them.
      if (kernel::preprocessorMayExplain(f.text, b, e, ts_node_start_byte(unit), ts_node_end_byte(unit))) break;
      auto [line, col] = f.position(b);
      std::string what = ts_node_is_missing(err) ? "missing '" + std::string(nodeType(err)) + "'" : "invalid syntax";
      out.push_back(makeDiagnostic("ISA001", f.path, line, col, what));
      break;
    }
  }
  kernel::KernelModel model = kernel::buildModel(f, tree);
  KernelContext ctx{f, model, settings.platform};
  for (const auto& check : kernelChecks()) check->check(ctx, out);
  Suppressions sup = parseSuppressions(f, "//");
  if (!sup.empty()) {
    sup.apply(f.path, out);
    // Only the kernel lint rules are judged: compile-stage IDs (ISA009/ISA010) are used by the compile pass.
    SuppressionAudit audit{"ISA012", "ISA013", [](const RuleInfo& r) {
                             return (r.family == "AUTO" || r.family == "ISA") && r.source == Stage::Lint;
                           }};
    auditSuppressions(f.path, sup, audit, out);
  }
  return out;
}

}  // namespace portcheck
