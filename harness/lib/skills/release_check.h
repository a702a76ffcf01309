#pragma once
// The release rule of the skill pack, checked against git: every skill changed since the newest
// `skills-vX.Y.Z` tag must carry a higher metadata.version, and the pack (plugin.json) a higher
// version than the tag. Read with libgit2; the working tree is compared with the tagged tree.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "skills/semver.h"
#include "workspace/workspace.h"

namespace portcheck {

inline constexpr const char* kReleaseTagPrefix = "skills-v";

struct ReleaseCheckOutcome {
  bool ran = false;                  // false: no git repository or no release tag
  std::string detail;                // what was compared, or why it did not run
  std::string tag;                   // newest release tag, e.g. "skills-v1.0.0"
  std::vector<std::string> changed;  // skills added, removed or changed since the tag
  std::vector<Diagnostic> diagnostics;
};

// The newest release tag among `names` (entries not of the form skills-vX.Y.Z are ignored).
std::optional<std::pair<std::string, SemVer>> newestReleaseTag(const std::vector<std::string>& names);

ReleaseCheckOutcome checkReleaseBump(const Workspace& ws, const std::filesystem::path& pack_root);

}  // namespace portcheck
