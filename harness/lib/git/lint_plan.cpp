#include "git/lint_plan.h"

#include <map>

#include "dsl/library_imports.h"
#include "dsl/local_imports.h"
#include "git/path_patterns.h"
#include "rules/catalogue.h"

namespace portcheck::git {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPyptoSrc = "/pypto_src/";

// "projects/<name>/pypto_src/..." -> <name>; empty for any other path.
std::string projectOf(std::string_view path) {
  if (path.substr(0, kProjects.size()) != kProjects) return {};
  std::string_view rest = path.substr(kProjects.size());
  std::size_t slash = rest.find('/');
  if (slash == 0 || slash == std::string_view::npos) return {};
  if (rest.substr(slash, kPyptoSrc.size()) != kPyptoSrc) return {};
  return std::string(rest.substr(0, slash));
}

bool isSource(std::string_view path) {
  fs::path p{std::string(path)};
  return isPythonSource(p) || isKernelSource(p);
}

// A file under a folder the disk walk skips (__pycache__, build, ...) is not a source either.
bool inSkippedFolder(std::string_view rel) {
  std::size_t start = 0;
  for (std::size_t slash; (slash = rel.find('/', start)) != std::string_view::npos; start = slash + 1)
    if (isSkippedDirectory(std::string(rel.substr(start, slash - start)))) return true;
  return false;
}

bool within(const std::vector<std::string>& only, std::string_view path) {
  if (only.empty()) return true;
  for (const std::string& o : only) {
    if (o.empty() || o == ".") return true;
    if (path == o) return true;
    if (path.size() > o.size() && path.substr(0, o.size()) == o && (o.back() == '/' || path[o.size()] == '/'))
      return true;
  }
  return false;
}

class Reader {
 public:
  Reader(const Repository& repo, LintPlan& plan) : repo_(repo), plan_(plan) {}

  // Reads a snapshot entry as a source; records why when it cannot be one. Changed entries that
  // cannot be read as text become TOOL002 findings (unchanged ones are filtered out later anyway).
  std::optional<SourceFile> read(const SnapshotEntry& e) {
    if (e.isSubmodule()) {
      skip(e.path, "a submodule (another repository; check it there)");
      return std::nullopt;
    }
    if (e.isSymlink()) {
      skip(e.path, "a symbolic link (git stores the link, not the file it points to)");
      return std::nullopt;
    }
    if (!e.isRegularFile()) return std::nullopt;
    ReadResult r = sourceFromBytes(readBlob(repo_, e.id), e.path);
    if (!r.file) {
      plan_.problems.push_back(
          makeDiagnostic("TOOL002", e.path, 0, 0, "cannot check " + e.path + " as staged: " + r.detail));
      return std::nullopt;
    }
    return std::move(r.file);
  }

 private:
  void skip(const std::string& path, const std::string& why) {
    if (plan_.changed.count(path)) plan_.skipped.push_back(path + ": not checked, " + why);
  }
  const Repository& repo_;
  LintPlan& plan_;
};

// The pypto-lib/ folder as the snapshot holds it, for the blocks a project imports.
dsl::LibraryFolder snapshotLibrary(const Repository& repo, const Snapshot& snapshot) {
  const std::string lib = "pypto-lib/";
  dsl::LibraryFolder library;
  auto [first, last] = snapshot.under(lib);
  for (const SnapshotEntry* e = first; e != last; ++e) {
    std::string_view rest = std::string_view(e->path).substr(lib.size());
    std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0) continue;
    std::string folder(rest.substr(0, slash));
    if (folder[0] == '.' || isSkippedDirectory(folder)) continue;
    if (library.folders.empty() || library.folders.back() != folder) library.folders.push_back(folder);
  }
  library.read = [&repo, &snapshot, lib](const std::string& rel) -> std::optional<SourceFile> {
    std::string path = lib + rel;
    const SnapshotEntry* e = snapshot.find(path);
    if (!e || !e->isRegularFile()) return std::nullopt;
    return sourceFromBytes(readBlob(repo, e->id), path).file;
  };
  return library;
}

// The modules a loose file imports, resolved and read in the snapshot (what the commit holds), shown
// workspace-relative like the file.
std::vector<SourceFile> snapshotImports(const Repository& repo, const Snapshot& snapshot, const Workspace& ws,
                                        const SourceFile& file) {
  auto entryAt = [&](const fs::path& absolute) -> const SnapshotEntry* {
    fs::path rel = absolute.lexically_normal().lexically_relative(ws.root.lexically_normal());
    if (rel.empty() || *rel.begin() == "..") return nullptr;
    const SnapshotEntry* e = snapshot.find(rel.generic_string());
    return e && e->isRegularFile() ? e : nullptr;
  };
  dsl::LocalReader read = [&](const fs::path& absolute) -> std::optional<SourceFile> {
    const SnapshotEntry* e = entryAt(absolute);
    if (!e) return std::nullopt;
    return sourceFromBytes(readBlob(repo, e->id), e->path).file;
  };
  dsl::LocalProbe exists = [&](const fs::path& absolute) { return entryAt(absolute) != nullptr; };
  std::vector<SourceFile> out;
  dsl::LocalFile entry{(ws.root / file.path).lexically_normal(), file};
  for (dsl::LocalFile& f : dsl::importedLocalFiles({entry}, read, dsl::kMaxLocalImports, true, exists))
    out.push_back(std::move(f.source));
  return out;
}

}  // namespace

LintPlan planLint(const Repository& repo, const Workspace& ws, const ChangeSet& changes, const PlanOptions& options) {
  LintPlan plan;
  std::set<std::string> projects;
  std::set<std::string> loose;
  for (const Change& c : changes.changes) {
    for (const std::string* side : {&c.old_path, &c.path}) {
      bool is_new_side = side == &c.path;
      if (!matchesAny(options.patterns, *side) || !within(options.only, *side)) continue;
      if (is_new_side && c.kind != ChangeKind::Deleted) plan.changed.insert(*side);
      std::string project = projectOf(*side);
      if (!project.empty()) projects.insert(project);  // a deletion or a rename out still affects it
      else if (is_new_side && c.kind != ChangeKind::Deleted && isSource(*side)) loose.insert(*side);
    }
  }

  Reader reader(repo, plan);
  const dsl::LibraryFolder library = snapshotLibrary(repo, changes.after);
  for (const std::string& name : projects) {
    std::string dir = std::string(kProjects) + name + "/";
    auto [pfirst, plast] = changes.after.under(dir);
    if (pfirst == plast) continue;  // the whole project was deleted: nothing left to check
    std::string src = dir + "pypto_src/";
    MemoryUnit unit;
    Project p;
    p.name = name;
    p.dir = ws.root / "projects" / name;
    p.pypto_src = p.dir / "pypto_src";
    p.tree.emplace();
    auto [first, last] = changes.after.under(src);
    for (const SnapshotEntry* e = first; e != last; ++e) {
      std::string rel = e->path.substr(src.size());
      p.tree->push_back(rel);
      plan.unit_files.insert(e->path);
      if (!e->isSubmodule() && !e->isSymlink() && (!isSource(e->path) || inSkippedFolder(rel))) continue;
      if (auto f = reader.read(*e)) unit.sources.push_back(std::move(*f));
    }
    unit.project = std::move(p);
    unit.library = dsl::importedLibraryFiles(library, unit.sources);
    plan.units.push_back(std::move(unit));
  }
  for (const std::string& path : loose) {
    plan.unit_files.insert(path);
    const SnapshotEntry* e = changes.after.find(path);
    if (!e) continue;
    if (auto f = reader.read(*e)) {
      MemoryUnit unit;
      if (isPythonSource(fs::path(path))) unit.context = snapshotImports(repo, changes.after, ws, *f);
      for (const SourceFile& m : unit.context) plan.unit_files.insert(m.path);  // their findings: their own lint
      unit.sources.push_back(std::move(*f));
      plan.units.push_back(std::move(unit));
    }
  }
  // A changed source in a project that cannot be read is already a TOOL002; an unreadable blob in an
  // unchanged sibling is not this change's doing.
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : plan.problems)
    if (plan.changed.count(d.file)) kept.push_back(std::move(d));
  plan.problems = std::move(kept);
  return plan;
}

std::vector<Diagnostic> findingsOfChange(std::vector<Diagnostic> diagnostics, const LintPlan& plan) {
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : diagnostics)
    if (plan.changed.count(d.file) || !plan.unit_files.count(d.file)) kept.push_back(std::move(d));
  return kept;
}

}  // namespace portcheck::git
