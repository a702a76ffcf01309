#include "git/staged_tree.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <system_error>

#include <unistd.h>

#include "compiler/compile_cache.h"
#include "compiler/compile_stage.h"
#include "compiler/content_hash.h"
#include "rules/catalogue.h"

namespace portcheck::git {

namespace fs = std::filesystem;

namespace {


// Shared blocks ports import by a path relative to their own file: copied with every tree.
constexpr std::string_view kPyptoLib = "pypto-lib/";

// One file to write: its repository path (its path inside the copy) and the staged entry.
struct TreeFile {
  std::string rel;
  const SnapshotEntry* entry;
};

// A relative path git could hold that must not escape the tree ("..", absolute, empty parts).
bool isSafeRelative(std::string_view rel) {
  if (rel.empty() || rel.front() == '/') return false;
  std::size_t start = 0;
  while (start <= rel.size()) {
    std::size_t slash = rel.find('/', start);
    std::string_view part = rel.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return true;
}

std::string treeKey(const std::vector<TreeFile>& files) {
  HashBuilder h;
  for (const TreeFile& f : files) {
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof hex, &f.entry->id);
    h.add(f.rel, std::string(hex) + " " + std::to_string(f.entry->mode));
  }
  return h.hex().substr(0, 16);
}

void touch(const fs::path& dir) {
  std::error_code ec;
  fs::last_write_time(dir, fs::file_time_type::clock::now(), ec);
}

// Writes `files` at their repository paths into `<staged>/<name>-<key>/`; an existing folder of the
// same key is reused. Written beside the target and renamed into place, so a concurrent hook sees all
// or nothing. Returns the copy's root, or "" with `error` set.
fs::path writeTree(const Repository& repo, const fs::path& staged, const std::string& name,
                   const std::vector<TreeFile>& files, std::string& error) {
  fs::path final_dir = staged / (safeFolderName(name, "tree") + "-" + treeKey(files));
  std::error_code ec;
  if (fs::is_directory(final_dir, ec)) {
    touch(final_dir);
    return final_dir;
  }
  std::random_device rd;
  fs::path tmp = staged / (".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
  auto fail = [&](const std::string& why) {
    error = why;
    fs::remove_all(tmp, ec);
    return fs::path();
  };
  for (const TreeFile& f : files) {
    fs::path target = tmp / f.rel;
    fs::create_directories(target.parent_path(), ec);
    if (ec) return fail("cannot create " + target.parent_path().string() + ": " + ec.message());
    std::string bytes = readBlob(repo, f.entry->id);
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return fail("cannot write " + target.string());
    if (f.entry->mode == GIT_FILEMODE_BLOB_EXECUTABLE)
      fs::permissions(target, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add, ec);
  }
  if (files.empty()) fs::create_directories(tmp, ec);
  fs::rename(tmp, final_dir, ec);
  if (ec) {
    std::error_code exists_ec;
    bool won_by_other = fs::is_directory(final_dir, exists_ec);  // another hook wrote the same content
    fs::remove_all(tmp, exists_ec);
    if (!won_by_other) {
      error = "cannot move the staged tree into " + final_dir.string() + ": " + ec.message();
      return {};
    }
  }
  return final_dir;
}

// The regular files of the snapshot under `prefix` (ending in '/'); recursive or only direct children.
std::vector<TreeFile> filesUnder(const Snapshot& after, const std::string& prefix, bool recursive,
                                 const std::set<std::string>& changed, std::vector<std::string>& skipped) {
  std::vector<TreeFile> out;
  auto [first, last] = after.under(prefix);
  for (const SnapshotEntry* e = first; e != last; ++e) {
    std::string rel = e->path.substr(prefix.size());
    if (!recursive && rel.find('/') != std::string::npos) continue;
    rel = e->path;
    if (!e->isRegularFile()) {
      if (changed.count(e->path))
        skipped.push_back(e->path + ": not part of the compiled copy (" +
                          (e->isSymlink() ? "a symbolic link" : e->isSubmodule() ? "a submodule" : "not a regular file") +
                          ")");
      continue;
    }
    if (!isSafeRelative(rel)) {
      skipped.push_back(e->path + ": not part of the compiled copy (an unsafe path)");
      continue;
    }
    out.push_back({rel, e});
  }
  return out;
}

// `files` plus the staged pypto-lib/ (without duplicates), sorted by path.
std::vector<TreeFile> withPyptoLib(std::vector<TreeFile> files, const Snapshot& after,
                                   const std::set<std::string>& changed, std::vector<std::string>& skipped) {
  std::set<std::string> have;
  for (const TreeFile& f : files) have.insert(f.rel);
  for (TreeFile& f : filesUnder(after, std::string(kPyptoLib), true, changed, skipped))
    if (have.insert(f.rel).second) files.push_back(std::move(f));
  std::sort(files.begin(), files.end(), [](const TreeFile& a, const TreeFile& b) { return a.rel < b.rel; });
  return files;
}

}  // namespace

StagedTargets materializeStagedTargets(const Repository& repo, const ChangeSet& changes, const LintPlan& plan,
                                       const fs::path& cache_root) {
  StagedTargets out;
  fs::path staged = cache_root / "staged";
  std::string error;
  std::error_code ec;
  if (prepareCacheRoot(cache_root, error)) fs::create_directories(staged, ec);
  if (!error.empty() || ec) {
    out.problems.push_back(makeDiagnostic("TOOL005", "", 0, 0,
                                          "cannot compile the staged files: cannot create " + staged.string() + ": " +
                                              (error.empty() ? ec.message() : error)));
    return out;
  }
  // The tree root, or "" after recording why it could not be written.
  auto write = [&](const std::string& name, const std::vector<TreeFile>& files, const std::string& display) {
    std::string error;
    fs::path root = writeTree(repo, staged, name, files, error);
    if (root.empty())
      out.problems.push_back(makeDiagnostic("TOOL005", display, 0, 0, "cannot compile the staged files: " + error));
    return root;
  };

  for (const MemoryUnit& unit : plan.units) {
    if (unit.project) {
      const std::string& name = unit.project->name;
      std::string src = std::string(kProjects) + name + "/pypto_src/";
      std::vector<TreeFile> files = filesUnder(changes.after, src, true, plan.changed, out.skipped);
      if (files.empty()) continue;  // no pypto_src staged: PROJ001 already says so
      CompileTarget t;
      t.name = name;
      t.source_root_display = src.substr(0, src.size() - 1);
      for (const TreeFile& f : files)
        if (f.rel == src + "golden.py") t.display_file = f.rel;
      t.tree_root = write(name, withPyptoLib(std::move(files), changes.after, plan.changed, out.skipped),
                          t.source_root_display);
      if (t.tree_root.empty()) continue;
      t.source_root = t.tree_root / t.source_root_display;
      out.targets.push_back(std::move(t));
      continue;
    }
    if (unit.sources.size() != 1) continue;
    const SourceFile& file = unit.sources.front();
    if (fs::path(file.path).extension() != ".py" || !definesProgram(file.text)) continue;
    std::size_t slash = file.path.rfind('/');
    std::string dir = slash == std::string::npos ? "" : file.path.substr(0, slash + 1);
    std::string base = file.path.substr(dir.size());
    std::vector<TreeFile> files = filesUnder(changes.after, dir, false, plan.changed, out.skipped);
    CompileTarget t;
    t.name = fs::path(base).stem().string();
    t.source_root_display = dir.empty() ? "" : dir.substr(0, dir.size() - 1);
    t.display_file = file.path;
    t.tree_root = write(t.name, withPyptoLib(std::move(files), changes.after, plan.changed, out.skipped), file.path);
    if (t.tree_root.empty()) continue;
    t.source_root = (t.tree_root / t.source_root_display).lexically_normal();
    t.program_file = t.tree_root / file.path;
    out.targets.push_back(std::move(t));
  }
  return out;
}

void pruneStagedTrees(const fs::path& cache_root, std::size_t keep) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> trees;
  for (fs::directory_iterator it(cache_root / "staged", ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().rfind(".tmp-", 0) == 0) continue;  // another hook may be writing it
    std::error_code tec;
    if (it->is_directory(tec)) trees.emplace_back(fs::last_write_time(it->path(), tec), it->path());
  }
  if (trees.size() <= keep) return;
  std::sort(trees.begin(), trees.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = keep; i < trees.size(); ++i) fs::remove_all(trees[i].second, ec);
}

}  // namespace portcheck::git
