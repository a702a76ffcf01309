// C++ incore kernel linter entry: parses the kernel with tree-sitter, reports syntax errors (ISA001),
// builds the kernel model, runs every AUTO and ISA check, and honours `// port-check: ignore[ID]`.
#include "kernel/kernel_model.h"
#include "kernel/kernel_source.h"
#include "lint/kernel/kernel_check.h"
#include "lint/kernel/suppression.h"
#include "lint/linters.h"
#include "parse/syntax_tree.h"
#include "rules/catalogue.h"

namespace portcheck {

std::vector<Diagnostic> lintKernelFile(const SourceFile& f, const LintSettings& settings) {
  std::vector<Diagnostic> out;
  std::string parseable = kernel::parseableText(f.text);
  SyntaxTree tree = SyntaxTree::parse(Language::Cpp, parseable);
  if (!tree.ok()) {
    out.push_back(makeDiagnostic("ISA001", f.path, 1, 1, "the file could not be parsed in time"));
    return out;
  }
  TSNode err = tree.firstError();
  if (!isNull(err)) {
    auto [line, col] = f.position(ts_node_start_byte(err));
    std::string what = ts_node_is_missing(err) ? "missing '" + std::string(nodeType(err)) + "'" : "invalid syntax";
    out.push_back(makeDiagnostic("ISA001", f.path, line, col, what));
  }
  kernel::KernelModel model = kernel::buildModel(f, tree);
  KernelContext ctx{f, model, settings.platform};
  for (const auto& check : kernelChecks()) check->check(ctx, out);
  dropSuppressed(f, out);
  return out;
}

}  // namespace portcheck
