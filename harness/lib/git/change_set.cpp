#include "git/change_set.h"

#include <algorithm>

namespace portcheck::git {

std::string_view toString(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::Added: return "added";
    case ChangeKind::Modified: return "modified";
    case ChangeKind::Deleted: return "deleted";
    case ChangeKind::Renamed: return "renamed";
    case ChangeKind::Copied: return "copied";
    case ChangeKind::TypeChanged: return "type changed";
  }
  return "changed";
}

std::pair<const SnapshotEntry*, const SnapshotEntry*> Snapshot::under(std::string_view prefix) const {
  auto first = std::lower_bound(entries.begin(), entries.end(), prefix,
                                [](const SnapshotEntry& e, std::string_view p) { return e.path < p; });
  auto last = first;
  while (last != entries.end() && std::string_view(last->path).substr(0, prefix.size()) == prefix) ++last;
  const SnapshotEntry* base = entries.data();
  return {base + (first - entries.begin()), base + (last - entries.begin())};
}

const SnapshotEntry* Snapshot::find(std::string_view path) const {
  auto [first, last] = under(path);  // the entry of `path` itself sorts first among those it prefixes
  return first != last && first->path == path ? first : nullptr;
}

namespace {

void sortSnapshot(Snapshot& s) {
  std::sort(s.entries.begin(), s.entries.end(),
            [](const SnapshotEntry& a, const SnapshotEntry& b) { return a.path < b.path; });
}

Snapshot indexSnapshot(git_index* index) {
  Snapshot s;
  std::size_t n = git_index_entrycount(index);
  s.entries.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const git_index_entry* e = git_index_get_byindex(index, i);
    if (!e || GIT_INDEX_ENTRY_STAGE(e) != GIT_INDEX_STAGE_NORMAL) continue;  // conflicts cannot be committed
    s.entries.push_back(SnapshotEntry{e->path, e->id, e->mode});
  }
  sortSnapshot(s);
  return s;
}

struct TreeWalk {
  Snapshot* snapshot;
  const FolderFilter* may_contain;
};

int collectTreeEntry(const char* root, const git_tree_entry* entry, void* payload) {
  auto* walk = static_cast<TreeWalk*>(payload);
  std::string path = std::string(root) + git_tree_entry_name(entry);
  git_filemode_t mode = git_tree_entry_filemode(entry);
  if (mode == GIT_FILEMODE_TREE) {
    if (*walk->may_contain && !(*walk->may_contain)(path + "/")) return 1;  // skip this folder
    return 0;
  }
  walk->snapshot->entries.push_back(SnapshotEntry{std::move(path), *git_tree_entry_id(entry), mode});
  return 0;
}

std::vector<Change> changesOf(git_diff* diff) {
  git_diff_find_options find;
  git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
  find.flags = GIT_DIFF_FIND_RENAMES;
  check(git_diff_find_similar(diff, &find), "cannot detect renames");
  std::vector<Change> out;
  std::size_t n = git_diff_num_deltas(diff);
  for (std::size_t i = 0; i < n; ++i) {
    const git_diff_delta* d = git_diff_get_delta(diff, i);
    Change c;
    switch (d->status) {
      case GIT_DELTA_ADDED: c.kind = ChangeKind::Added; break;
      case GIT_DELTA_MODIFIED: c.kind = ChangeKind::Modified; break;
      case GIT_DELTA_DELETED: c.kind = ChangeKind::Deleted; break;
      case GIT_DELTA_RENAMED: c.kind = ChangeKind::Renamed; break;
      case GIT_DELTA_COPIED: c.kind = ChangeKind::Copied; break;
      case GIT_DELTA_TYPECHANGE: c.kind = ChangeKind::TypeChanged; break;
      default: continue;  // unmodified, conflicted, untracked, ignored: nothing is committed
    }
    c.old_path = d->old_file.path ? d->old_file.path : "";
    c.path = c.kind == ChangeKind::Deleted ? c.old_path : (d->new_file.path ? d->new_file.path : c.old_path);
    if (c.old_path.empty()) c.old_path = c.path;
    out.push_back(std::move(c));
  }
  return out;
}

git_diff_options diffOptions() {
  git_diff_options opts;
  git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
  opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE;
  return opts;
}

}  // namespace

ChangeSet stagedChanges(const Repository& repo, git_index* index) {
  ChangeSet set;
  set.description = "staged changes";
  TreePtr head = repo.headTree();  // null on the first commit: diffed against the empty tree
  git_diff_options opts = diffOptions();
  git_diff* raw = nullptr;
  check(git_diff_tree_to_index(&raw, repo.get(), head.get(), index, &opts), "cannot compare the index with HEAD");
  DiffPtr diff(raw);
  set.changes = changesOf(diff.get());
  set.after = indexSnapshot(index);
  return set;
}

ChangeSet changesSince(const Repository& repo, const std::string& rev, const FolderFilter& may_contain) {
  ChangeSet set;
  set.description = "changes since " + rev;
  TreePtr base = repo.mergeBaseTree(rev);
  TreePtr head = repo.treeOf("HEAD");
  git_diff_options opts = diffOptions();
  git_diff* raw = nullptr;
  check(git_diff_tree_to_tree(&raw, repo.get(), base.get(), head.get(), &opts),
        "cannot compare HEAD with '" + rev + "'");
  DiffPtr diff(raw);
  set.changes = changesOf(diff.get());
  TreeWalk walk{&set.after, &may_contain};
  check(git_tree_walk(head.get(), GIT_TREEWALK_PRE, collectTreeEntry, &walk), "cannot list HEAD's files");
  sortSnapshot(set.after);
  return set;
}

std::string readBlob(const Repository& repo, const git_oid& id) {
  git_blob* raw = nullptr;
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &id);
  check(git_blob_lookup(&raw, repo.get(), &id), std::string("cannot read blob ") + hex);
  BlobPtr blob(raw);
  const char* data = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  return std::string(data, static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

}  // namespace portcheck::git
