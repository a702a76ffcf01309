// PyPTO DSL linter entry: builds the DSL model of a unit (tree-sitter parse of every Python file,
// cross-file resolution), reports syntax errors (DSL001), runs the DSL checks over the model (also
// over the parts of a file that parse around a syntax error) and honours `# port-check: ignore[...]`
// comments, reporting unknown (DSL002) and unused (DSL003) suppressions.
#include <algorithm>
#include <optional>

#include "dsl/dsl_model.h"
#include "lint/dsl/dsl_check.h"
#include "lint/dsl/source_limits.h"
#include "lint/linters.h"
#include "lint/suppression.h"
#include "rules/catalogue.h"
#include "rules/wrong_numbers.h"

namespace portcheck {

bool importedBlockFile(const PythonUnit& unit, std::string_view path) {
  return !unit.project.empty() && path.rfind("pypto-lib/", 0) == 0;
}

bool importedLibraryFile(const PythonUnit& unit, std::string_view path) {
  if (std::find(unit.context.begin(), unit.context.end(), path) != unit.context.end()) return true;
  return importedBlockFile(unit, path);
}

// Applies the suppression comments of every file and reports the ones that name no rule or
// silence nothing the DSL rules report.
void applyPythonSuppressions(const PythonUnit& unit, std::vector<Diagnostic>& out) {
  std::vector<Diagnostic> extra;
  for (const SourceFile& f : unit.files) {
    Suppressions sup = parseSuppressions(f, "#");
    if (sup.empty()) continue;
    sup.apply(f.path, out);
    if (importedLibraryFile(unit, f.path)) continue;  // its DSL002 / DSL003 come from its own lint
    SuppressionAudit audit{"DSL002", "DSL003", [](const RuleInfo& r) {
                             return r.family == "DSL" && r.source == Stage::Lint;
                           }};
    auditSuppressions(f.path, sup, audit, extra);
  }
  out.insert(out.end(), extra.begin(), extra.end());
}

void lintPythonModel(const PythonUnit& unit, const dsl::ProgramModel& model, const LintSettings& settings,
                     std::vector<Diagnostic>& out) {
  const std::size_t first = out.size();
  for (const dsl::FileModel& f : model.files) {
    if (importedLibraryFile(unit, f.path)) continue;
    auto src = std::find_if(unit.files.begin(), unit.files.end(), [&](const SourceFile& s) { return s.path == f.path; });
    if (src != unit.files.end())
      if (std::optional<Diagnostic> d = pythonSourceLimitProblem(*src)) {  // CPython stops before parsing
        out.push_back(std::move(*d));
        continue;
      }
    if (!f.parsed) {
      out.push_back(makeDiagnostic("DSL001", f.path, 1, 1, "the file could not be parsed in time"));
      continue;
    }
    if (!f.syntax_error) continue;
    if (src != unit.files.end())
      if (std::optional<Diagnostic> d = pythonBracketProblem(*src)) {  // CPython's words for a bracket
        out.push_back(std::move(*d));
        continue;
      }
    const dsl::SyntaxIssue& e = *f.syntax_error;
    std::string what = e.missing ? "missing '" + e.missing_what + "'" : "invalid syntax";
    out.push_back(makeDiagnostic("DSL001", f.path, e.loc.line, e.loc.col, what));
  }
  DslCheckContext ctx{model, settings, unit.project};
  for (const auto& check : dslChecks()) check->check(ctx, out);
  // A block's findings belong to its own lint, but for those that make the port compute wrong numbers:
  // the port runs the block's code, so they are the port's too (located in the block's file).
  out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                           [&](const Diagnostic& d) {
                             return importedLibraryFile(unit, d.file) &&
                                    !(importedBlockFile(unit, d.file) && predictsWrongNumbers(d.rule));
                           }),
            out.end());
}

std::vector<Diagnostic> lintPythonUnit(const PythonUnit& unit, const LintSettings& settings) {
  std::vector<Diagnostic> out;
  dsl::ProgramModel model = dsl::buildProgramModel(unit.files);
  lintPythonModel(unit, model, settings, out);
  applyPythonSuppressions(unit, out);
  return out;
}

}  // namespace portcheck
