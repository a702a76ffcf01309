#pragma once
// The entry points of the source linters. The lint engine groups sources into units and calls these
// in parallel; each returns its findings and touches no shared state.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/platform.h"
#include "core/source_file.h"
#include "workspace/config.h"

namespace portcheck {

namespace dsl {
struct ProgramModel;
}
namespace kernel {
class BuildEvidence;
}

struct LintSettings {
  Platform platform = Platform::A2A3;
  const Config* config = nullptr;  // never null while linting
  // The lint cache folder (lint/lint_cache.h); nullopt: every unit is linted afresh.
  std::optional<std::filesystem::path> cache_dir;
  // What the build says about each kernel file (AUTO mode from compile_commands.json, CMakeLists.txt, --define);
  // null: the source alone decides.
  std::shared_ptr<const kernel::BuildEvidence> kernel_build;
};

// The Python files of one pypto_src/ (or one standalone program file), linted together so calls
// across sibling files resolve. `project` is the project name, empty for standalone files.
struct PythonUnit {
  std::string project;
  std::vector<SourceFile> files;
  // Paths of `files` that are there only because a file of the unit imports them (a loose program's
  // sibling modules, dsl/local_imports.h): in the model, their findings left to their own lint.
  std::vector<std::string> context;
};

// A pypto-lib/ block a project imports (dsl/library_imports.h), or a module of the unit's `context`: in
// the unit's model so calls resolve and the estimator covers its kernels (SRAM rows), but findings
// located in it belong to its own lint (`port-check lint pypto-lib/`, the module itself), not to every
// program that imports it; except, for a pypto-lib block, the findings that mean wrong numbers
// (rules/wrong_numbers.h), which the port reports too. A project's own files are under projects/<name>/.
bool importedLibraryFile(const PythonUnit& unit, std::string_view path);
// A pypto-lib/ block file in a project's unit (one kind of importedLibraryFile).
bool importedBlockFile(const PythonUnit& unit, std::string_view path);

// Builds the unit's DSL model, runs the DSL rules and applies the unit's suppression comments.
std::vector<Diagnostic> lintPythonUnit(const PythonUnit& unit, const LintSettings& settings);
// The DSL rules over a model built once by the caller (the lint engine shares it with the estimator);
// suppressions are not applied here.
void lintPythonModel(const PythonUnit& unit, const dsl::ProgramModel& model, const LintSettings& settings,
                     std::vector<Diagnostic>& out);
// Applies `# port-check: ignore[...]` comments of the unit's files to `out` (any rule family) and
// reports unknown (DSL002) and unused (DSL003) suppressions.
void applyPythonSuppressions(const PythonUnit& unit, std::vector<Diagnostic>& out);
std::vector<Diagnostic> lintKernelFile(const SourceFile& file, const LintSettings& settings);

}  // namespace portcheck
