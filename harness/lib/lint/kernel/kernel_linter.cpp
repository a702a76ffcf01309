// C++ incore kernel linter entry: parses the kernel with tree-sitter and reports syntax errors.
#include "lint/linters.h"
#include "parse/syntax_tree.h"
#include "rules/catalogue.h"

namespace portcheck {

std::vector<Diagnostic> lintKernelFile(const SourceFile& f, const LintSettings& settings) {
  std::vector<Diagnostic> out;
  SyntaxTree tree = SyntaxTree::parse(Language::Cpp, f.text);
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
  return out;
}

}  // namespace portcheck
