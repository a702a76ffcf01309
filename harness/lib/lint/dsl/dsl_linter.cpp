// PyPTO DSL linter entry: parses each Python file of a unit with tree-sitter and reports syntax errors.
#include "lint/linters.h"
#include "parse/syntax_tree.h"
#include "rules/catalogue.h"

namespace portcheck {

std::vector<Diagnostic> lintPythonUnit(const PythonUnit& unit, const LintSettings& settings) {
  std::vector<Diagnostic> out;
  for (const SourceFile& f : unit.files) {
    SyntaxTree tree = SyntaxTree::parse(Language::Python, f.text);
    if (!tree.ok()) {
      out.push_back(makeDiagnostic("DSL001", f.path, 1, 1, "the file could not be parsed in time"));
      continue;
    }
    TSNode err = tree.firstError();
    if (isNull(err)) continue;
    auto [line, col] = f.position(ts_node_start_byte(err));
    std::string what = ts_node_is_missing(err) ? "missing '" + std::string(nodeType(err)) + "'" : "invalid syntax";
    out.push_back(makeDiagnostic("DSL001", f.path, line, col, what));
  }
  return out;
}

}  // namespace portcheck
