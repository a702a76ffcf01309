#pragma once
// `port-check skills check`: the static validation of a skill pack folder. Every failure is a
// SKILL diagnostic (rules/SKILL/).
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "workspace/workspace.h"

namespace portcheck {

// Agent Skills limits (agentskills specification; Anthropic's quick_validate.py).
inline constexpr std::size_t kMaxSkillNameLength = 64;
inline constexpr std::size_t kMaxDescriptionLength = 1024;
inline constexpr int kMaxSkillBodyLines = 500;  // "Keep your main SKILL.md under 500 lines"

struct PackCheckOptions {
  // Does `templates/...` (a file or folder path, '/'-separated, no trailing '/') exist?
  // Default: look in <root>/templates when it exists, else in the templates built into port-check.
  std::function<bool(const std::string&)> template_exists;
};

// Frontmatter, names, descriptions, versions, body length, links, rule and template references of
// every skill, and the manifests and changelog of the pack at `root`. Paths are reported relative to `ws`.
std::vector<Diagnostic> checkSkillPack(const Workspace& ws, const std::filesystem::path& root,
                                       const PackCheckOptions& options = {});

// Agent Skills name rule: 1-64 of [a-z0-9-], no leading/trailing '-', no "--". Empty string when
// valid, else what is wrong.
std::string skillNameProblem(const std::string& name);

}  // namespace portcheck
