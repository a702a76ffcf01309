#pragma once
// What a commit (or a branch) changes: the staged index against HEAD, or HEAD against the merge
// base of a revision, with the files of the "after" side available as blobs.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "git/repository.h"

namespace portcheck::git {

// Where ports live, relative to the repository root.
inline constexpr std::string_view kProjects = "projects/";

enum class ChangeKind { Added, Modified, Deleted, Renamed, Copied, TypeChanged };
std::string_view toString(ChangeKind kind);

struct Change {
  ChangeKind kind = ChangeKind::Modified;
  std::string path;      // repository-relative, raw bytes as git stores them (may not be UTF-8)
  std::string old_path;  // where a renamed or copied file came from; == path otherwise
};

// One file of the "after" side: path, blob (or submodule commit) id and git file mode.
struct SnapshotEntry {
  std::string path;
  git_oid id{};
  std::uint32_t mode = 0;

  bool isRegularFile() const { return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE; }
  bool isSymlink() const { return mode == GIT_FILEMODE_LINK; }
  bool isSubmodule() const { return mode == GIT_FILEMODE_COMMIT; }
};

// The files that are about to be committed (the index) or were committed (a tree), sorted by path.
struct Snapshot {
  std::vector<SnapshotEntry> entries;

  // Entries whose path starts with `prefix` (which ends in '/'), as [first, last).
  std::pair<const SnapshotEntry*, const SnapshotEntry*> under(std::string_view prefix) const;
  // The entry of exactly `path`; null when the snapshot has none.
  const SnapshotEntry* find(std::string_view path) const;
};

struct ChangeSet {
  std::string description;  // for messages: "staged changes", "changes since origin/main"
  std::vector<Change> changes;
  Snapshot after;
};

// `may_contain(dir)` says whether a folder ("a/b/", with the trailing '/') can hold files of
// interest; folders it rejects are not walked. Null = walk everything.
using FolderFilter = std::function<bool(std::string_view dir)>;

// The staged changes: HEAD (the empty tree when HEAD is unborn) against `index`, renames detected.
// Reads only; the index is never refreshed or written.
ChangeSet stagedChanges(const Repository& repo, git_index* index);
// The changes HEAD makes since the merge base of `rev` and HEAD (`git diff REV...HEAD`), with
// HEAD's files as the "after" side.
ChangeSet changesSince(const Repository& repo, const std::string& rev, const FolderFilter& may_contain);

// The raw bytes of a blob: exactly what is committed (no checkout filters). Throws GitError.
std::string readBlob(const Repository& repo, const git_oid& id);

}  // namespace portcheck::git
