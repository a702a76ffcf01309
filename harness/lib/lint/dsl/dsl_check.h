#pragma once
// Checks on the PyPTO DSL model (DSL family). One class per rule, registered in dslChecks().
// A check reads the unit's model (dsl/dsl_model.h) and appends diagnostics built with
// makeDiagnostic(); it keeps no state between calls (units are linted in parallel).
#include <memory>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "dsl/dsl_model.h"
#include "lint/linters.h"

namespace portcheck {

// What a DSL check sees: the model of one unit (every Python file of a pypto_src/, or one
// standalone file) and the run's settings.
struct DslCheckContext {
  const dsl::ProgramModel& program;
  const LintSettings& settings;
  std::string_view project;  // empty for standalone files
};

class DslCheck {
 public:
  virtual ~DslCheck() = default;
  virtual std::string_view id() const = 0;
  // Whole-unit check; the default calls checkFile() for every file that parsed.
  virtual void check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const {
    for (const dsl::FileModel& f : ctx.program.files)
      if (f.parsed) checkFile(ctx, f, out);
  }
  // Per-file check, for rules that need nothing across files.
  virtual void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const {}
};

// Every DSL check, in ID order.
const std::vector<std::unique_ptr<DslCheck>>& dslChecks();

}  // namespace portcheck
