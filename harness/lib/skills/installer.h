#pragma once
// `port-check skills install --target DIR`: copies the skills of a pack into DIR/.claude/skills/.
// Idempotent (an unchanged pack writes nothing), updates files it installed before, and refuses to
// replace files edited since (detected by the content hashes it records) unless forced.
#include <filesystem>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "skills/skill_pack.h"
#include "workspace/workspace.h"

namespace portcheck {

// Written beside the installed skills; lists every installed file and its blob hash.
inline constexpr const char* kInstallManifest = ".port-check-skills.json";

struct InstallRequest {
  std::vector<PackFile> files;     // skill files, paths "skills/<name>/..."
  std::string pack_name;
  std::string pack_version;
  std::filesystem::path target;    // DIR; skills go to DIR/.claude/skills/
  bool force = false;              // replace locally edited files
};

struct InstallOutcome {
  std::vector<Diagnostic> diagnostics;    // SKILL019 per edited file (when refused)
  std::vector<std::string> written;       // created or updated, relative to DIR/.claude/skills
  std::vector<std::string> removed;       // installed before, no longer in the pack
  std::size_t unchanged = 0;
  bool refused = false;                   // edits found and not forced: nothing was written
  std::string error;                      // the filesystem failed (port-check could not do its job)
};

InstallOutcome installSkills(const Workspace& ws, const InstallRequest& request);

}  // namespace portcheck
