#include "workspace/workspace.h"

#include <algorithm>
#include <system_error>

#include "rules/catalogue.h"

namespace portcheck {

namespace fs = std::filesystem;

Workspace Workspace::discover(const fs::path& start) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(start), ec);
  if (ec) abs = fs::absolute(start);
  if (!fs::is_directory(abs, ec)) abs = abs.parent_path();
  for (fs::path p = abs; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "port-check.json", ec) || fs::exists(p / ".git", ec)) return Workspace{p};
    if (p == p.root_path()) break;
  }
  return Workspace{abs};
}

std::string Workspace::relative(const fs::path& p) const {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec).lexically_normal();
  fs::path rel = abs.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") return abs.generic_string();
  return rel.generic_string();
}

bool Project::hasSourceDir() const {
  if (tree) return !tree->empty();
  std::error_code ec;
  return fs::is_directory(pypto_src, ec);
}

bool Project::hasFile(const std::string& rel) const {
  if (tree) return std::binary_search(tree->begin(), tree->end(), rel);
  std::error_code ec;
  return fs::is_regular_file(pypto_src / rel, ec);
}

bool isSkippedDirectory(const std::string& name) {
  static const char* kSkip[] = {"build", "build_output", "__pycache__", ".git", "node_modules", ".port-check-cache"};
  if (name.rfind("build-", 0) == 0) return true;  // out-of-tree style build folders: build-asan, build-release
  return std::find(std::begin(kSkip), std::end(kSkip), name) != std::end(kSkip);
}

bool isPythonSource(const fs::path& p) { return p.extension() == ".py"; }

bool isKernelSource(const fs::path& p) {
  const auto e = p.extension();
  return e == ".cpp" || e == ".cc" || e == ".cxx" || e == ".h" || e == ".hpp";
}

namespace {

void walkSources(const fs::path& dir, std::vector<fs::path>& out) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& e = *it;
    std::error_code sec;
    if (e.is_directory(sec)) {
      if (isSkippedDirectory(e.path().filename().string())) it.disable_recursion_pending();
      continue;
    }
    if (isPythonSource(e.path()) || isKernelSource(e.path())) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
}

Project makeProject(const fs::path& dir) {
  Project p;
  p.dir = dir;
  p.name = dir.filename().string();
  p.pypto_src = dir / "pypto_src";
  std::error_code ec;
  if (fs::is_directory(p.pypto_src, ec)) walkSources(p.pypto_src, p.sources);
  return p;
}

}  // namespace

Targets collectTargets(const Workspace& ws, const fs::path& cwd, const std::vector<std::string>& paths) {
  Targets t;
  std::error_code ec;
  for (const std::string& arg : paths) {
    fs::path p = fs::path(arg).is_absolute() ? fs::path(arg) : cwd / arg;
    p = p.lexically_normal();
    if (!p.has_filename()) p = p.parent_path();
    if (!fs::exists(p, ec)) {
      // A link that resolves to nothing is there but cannot be followed: say so rather than "does not exist".
      bool link = fs::is_symlink(fs::symlink_status(p, ec));
      Diagnostic d = makeDiagnostic("TOOL001", "", 0, 0,
                                    "input path '" + arg + (link ? "' is a symbolic link that cannot be resolved (dangling or a loop)"
                                                                 : "' does not exist"));
      t.problems.push_back(std::move(d));
      continue;
    }
    if (!fs::is_directory(p, ec)) {
      if (isPythonSource(p) || isKernelSource(p)) t.files.push_back(fs::absolute(p));
      else t.problems.push_back(makeDiagnostic("TOOL008", "", 0, 0,
                                               "'" + arg + "' is not a file port-check checks (.py, .cpp, .cc, .h, "
                                               ".hpp): nothing in it was checked"));
      continue;
    }
    const std::size_t before = t.projects.size() + t.files.size();
    if (fs::is_directory(p / "pypto_src", ec)) {
      t.projects.push_back(makeProject(fs::absolute(p)));
    } else if (p.filename() == "projects") {
      std::vector<fs::path> children;
      for (const auto& e : fs::directory_iterator(p, ec))
        if (e.is_directory() && !isSkippedDirectory(e.path().filename().string())) children.push_back(e.path());
      std::sort(children.begin(), children.end());
      for (const fs::path& c : children) t.projects.push_back(makeProject(fs::absolute(c)));
    } else if (p.parent_path().filename() == "projects") {
      t.projects.push_back(makeProject(fs::absolute(p)));  // a project missing pypto_src/
    } else {
      walkSources(fs::absolute(p), t.files);
    }
    if (t.projects.size() + t.files.size() == before)
      t.problems.push_back(makeDiagnostic("TOOL008", "", 0, 0,
                                          "'" + arg + "' holds no project and no file port-check checks (.py, .cpp, "
                                          ".cc, .h, .hpp): nothing in it was checked"));
  }
  std::sort(t.files.begin(), t.files.end());
  t.files.erase(std::unique(t.files.begin(), t.files.end()), t.files.end());
  (void)ws;
  return t;
}

}  // namespace portcheck
