#pragma once
// Installs and removes the pre-commit hook script that runs `port-check hook run`.
#include <filesystem>
#include <string>

namespace portcheck::git {

// The line that marks a hook file as port-check's own (install overwrites it, uninstall removes it).
inline constexpr const char* kHookMarker = "# port-check-managed-hook";
// A foreign hook kept by `install --chain`; the port-check hook runs it first.
inline constexpr const char* kChainedHookName = "pre-commit.port-check-chained";
// Where `install --force` moves a foreign hook it replaces.
inline constexpr const char* kBackupHookName = "pre-commit.port-check-backup";

// The hook script. `executable` is the absolute path of the port-check binary to run.
std::string preCommitScript(const std::string& executable);
bool isPortCheckHook(const std::string& script_text);

struct HookChange {
  enum class Status { Installed, Updated, Chained, Replaced, Refused, Removed, Restored, NothingToDo, Failed };
  Status status = Status::Failed;
  std::filesystem::path hook;  // the pre-commit file
  std::string message;         // one or more lines for the user
  bool ok() const { return status != Status::Refused && status != Status::Failed; }
};

// Writes <hooks_dir>/pre-commit. A hook that port-check did not write is refused, unless `chain`
// (keep it as pre-commit.port-check-chained and run it first) or `force` (move it to
// pre-commit.port-check-backup and replace it).
HookChange installPreCommitHook(const std::filesystem::path& hooks_dir, const std::string& executable, bool force,
                                bool chain);
// Removes port-check's hook and puts a chained hook back in its place; leaves a foreign hook alone.
HookChange uninstallPreCommitHook(const std::filesystem::path& hooks_dir);

}  // namespace portcheck::git
