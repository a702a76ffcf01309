#pragma once
// The previous attempt's file contents, kept in projects/<name>/.port-check/snapshot.json so the next
// attempt can say which lines changed. Bounded: a file over kMaxSnapshotFileBytes, or past
// kMaxSnapshotBytes in total, is kept by hash only (its change is then reported without lines).
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ledger/attempt.h"
#include "ledger/project_sources.h"

namespace portcheck::ledger {

inline constexpr std::size_t kMaxSnapshotFileBytes = 1u << 20;
inline constexpr std::size_t kMaxSnapshotBytes = 8u << 20;

struct SnapshotFile {
  std::string hash;
  std::optional<std::string> text;  // nullopt: over the bounds, or not UTF-8
};

struct Snapshot {
  int attempt = 0;  // the attempt it was taken at
  std::map<std::string, SnapshotFile> files;
};

Snapshot takeSnapshot(const ProjectSources& sources, int attempt);

// nullopt when absent or unreadable (then the next attempt has nothing to compare with).
std::optional<Snapshot> readSnapshot(const std::filesystem::path& file);
bool writeSnapshot(const std::filesystem::path& file, const Snapshot& snapshot, std::string& error);

// What changed from `before` to `now`, by path: added, removed and modified files (with their hunks
// when the old text was kept); unchanged files are left out. Functions and kernels are not filled in
// (ledger/code_spans.h does that).
std::vector<FileChange> changesSince(const Snapshot& before, const ProjectSources& now);

}  // namespace portcheck::ledger
