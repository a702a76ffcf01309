#pragma once
// Checks on a project (PROJ family). One class per rule, registered in projectChecks().
//
// Two kinds, by what they read:
// - check(): the project's layout and its folders beside pypto_src/ (original/). Runs on every lint,
//   never cached. Ask the project (Project::hasSourceDir, hasFile, tree) for pypto_src/, never the
//   filesystem: the git hook runs these checks on a project's staged tree, which is not on disk.
// - checkSources(): what the project's sources say (golden.py, its CONTRACT and tolerances), with the
//   unit's DSL model. Runs with the DSL rules, on the sources as read (from disk or from git), and is
//   cached with them (lint/lint_cache.h): it must depend on nothing but the sources.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/source_file.h"
#include "workspace/workspace.h"

namespace portcheck {

namespace dsl {
struct ProgramModel;
}
namespace proj {
class GoldenSource;
}

// What checkSources() sees.
struct ProjectSourceContext {
  std::string_view project;     // the project's name
  std::string source_dir;       // pypto_src/, workspace-relative ('/'-separated)
  std::span<const SourceFile> files;  // every Python source of the unit (pypto-lib blocks it imports included)
  const dsl::ProgramModel& model;     // the unit's model (dsl/dsl_model.h)
  // golden.py read (lint/proj/golden_source.h), or null when the project has none among its sources.
  // For a pypto-lib block (`block`), the block file, whose golden section plays golden.py's part.
  const proj::GoldenSource* golden = nullptr;
  bool block = false;

  // The project's own file `rel` (under pypto_src/), or null.
  const SourceFile* file(std::string_view rel) const;
  // The project's own files under pypto_src/ (not the pypto-lib blocks it imports).
  bool own(const SourceFile& f) const;
};

class ProjectCheck {
 public:
  virtual ~ProjectCheck() = default;
  virtual std::string_view id() const = 0;
  // `sources`: the project's files as read for this lint (pypto_src/ and the pypto-lib blocks it imports;
  // empty when they are not read, or excluded by the configuration).
  virtual void check(const Workspace& ws, const Project& project, std::span<const SourceFile> sources,
                     std::vector<Diagnostic>& out) const {}
  virtual void checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const {}
};

// Every PROJ check, in ID order.
const std::vector<std::unique_ptr<ProjectCheck>>& projectChecks();

// The workspace-relative path of golden.py in `source_dir` ("projects/x/pypto_src/golden.py").
std::string goldenPathIn(std::string_view source_dir);

// The block's name when `path` (workspace-relative) is a pypto-lib block file, pypto-lib/<name>/<name>.py,
// whose golden section the checkSources() checks read as a golden.py (docs/contract.md §8); else empty.
std::string blockNameOf(std::string_view path);

// What the checks call the file they read: "golden.py of 'x'", or "the block file of 'x'".
std::string goldenName(const ProjectSourceContext& ctx);

}  // namespace portcheck
