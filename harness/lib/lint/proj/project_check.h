#pragma once
// Checks on a project's layout (PROJ family). One class per rule, registered in projectChecks().
// Ask the project (Project::hasSourceDir, hasFile, tree), never the filesystem: the git hook
// runs these checks on a project's staged tree, which is not on disk.
#include <memory>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "workspace/workspace.h"

namespace portcheck {

class ProjectCheck {
 public:
  virtual ~ProjectCheck() = default;
  virtual std::string_view id() const = 0;
  virtual void check(const Workspace& ws, const Project& project, std::vector<Diagnostic>& out) const = 0;
};

// Every PROJ check, in ID order.
const std::vector<std::unique_ptr<ProjectCheck>>& projectChecks();

}  // namespace portcheck
