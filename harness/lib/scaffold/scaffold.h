#pragma once
// `port-check new NAME`: a project skeleton projects/NAME/ from the templates built into port-check
// (templates/project/, overlaid by templates/project-<kind>/; optionally the AUTO-mode C++ kernel).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck {

enum class ProjectKind { Op, Model };

std::optional<ProjectKind> parseProjectKind(std::string_view text);
std::string_view toString(ProjectKind k);

struct ScaffoldRequest {
  std::string name;
  ProjectKind kind = ProjectKind::Op;
  bool with_kernel = false;  // also copy the AUTO-mode C++ incore kernel into pypto_src/kernels/
};

// One file of the skeleton: path relative to the project folder and its content, placeholders filled.
struct ScaffoldFile {
  std::string path;
  std::string bytes;
};

// The files `port-check new` writes, before anything touches the disk.
std::vector<ScaffoldFile> projectSkeleton(const ScaffoldRequest& request);

struct ScaffoldOutcome {
  std::filesystem::path dir;                    // absolute projects/NAME
  std::vector<std::filesystem::path> files;     // absolute, in write order
  std::string error;                            // empty on success
};

// Writes projects/NAME under `workspace_root`. Refuses an invalid name or an existing, non-empty folder.
ScaffoldOutcome scaffoldProject(const std::filesystem::path& workspace_root, const ScaffoldRequest& request);

// Empty when `name` is a valid project name (lower-case letters, digits, '_' and '-', starting with a
// letter or digit, at most 64 characters), else what is wrong.
std::string projectNameProblem(std::string_view name);

}  // namespace portcheck
