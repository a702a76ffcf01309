#pragma once
// The workspace: its root, the projects and files a run is asked to check.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace portcheck {

struct Workspace {
  std::filesystem::path root;  // absolute, canonical

  // Nearest ancestor of `start` holding port-check.json or .git; `start` itself when none.
  static Workspace discover(const std::filesystem::path& start);
  // Workspace-relative '/'-separated path; the absolute path when `p` lies outside the root.
  std::string relative(const std::filesystem::path& p) const;
};

// A port: projects/<name>/ with pypto_src/ (or a folder that has one).
struct Project {
  std::string name;
  std::filesystem::path dir;        // absolute
  std::filesystem::path pypto_src;  // absolute; may not exist (PROJ rules report it)
  std::vector<std::filesystem::path> sources;  // .py/.cpp/.cc/.h/.hpp under pypto_src, sorted
  // Set when the project's files come from git (the staged index, a commit) instead of the disk:
  // every path under pypto_src, relative to it, '/'-separated, sorted. PROJ checks ask hasFile().
  std::optional<std::vector<std::string>> tree;

  bool hasSourceDir() const;                      // pypto_src/ exists (on disk or in `tree`)
  bool hasFile(const std::string& rel) const;     // pypto_src/<rel> is a file (on disk or in `tree`)
};

struct Targets {
  std::vector<Project> projects;
  std::vector<std::filesystem::path> files;  // loose files (pypto-lib programs, kernels), absolute, sorted
  std::vector<Diagnostic> problems;          // inputs that do not exist (TOOL001)
};

// Folders never walked into: build output, caches, VCS data.
bool isSkippedDirectory(const std::string& name);
// Extensions port-check reads as sources.
bool isPythonSource(const std::filesystem::path& p);
bool isKernelSource(const std::filesystem::path& p);

// Resolves command-line paths (relative to `cwd`) into projects and files:
// a folder with pypto_src/ is a project, projects/ expands to its children, other folders are
// walked for sources, files are taken as given.
Targets collectTargets(const Workspace& ws, const std::filesystem::path& cwd, const std::vector<std::string>& paths);

}  // namespace portcheck
