#include "dsl/library_imports.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "dsl/local_imports.h"
#include "workspace/workspace.h"

namespace portcheck::dsl {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxLibraryFiles = 64;  // a runaway chain of imports stops here

// "a/b" for module "a.b".
std::string modulePath(const std::string& module) {
  std::string p = module;
  std::replace(p.begin(), p.end(), '.', '/');
  return p;
}

bool provides(const std::string& file_path, const std::string& module_path) {
  std::string p = fs::path(file_path).lexically_normal().generic_string();
  if (p.size() > 3 && p.compare(p.size() - 3, 3, ".py") == 0) p.resize(p.size() - 3);
  if (p == module_path) return true;
  std::string suffix = "/" + module_path;
  return p.size() > suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<std::string> importedModules(std::string_view text) {
  std::vector<std::string> out;
  for (const ImportStatement& imp : importStatements(text)) {
    const std::string& m = imp.module;
    if (imp.level > 0 || m.empty() || m == "__future__" || m.back() == '.' || (m.front() >= '0' && m.front() <= '9'))
      continue;
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  return out;
}

LibraryFolder diskLibrary(const fs::path& workspace_root) {
  LibraryFolder library;
  const fs::path lib = workspace_root / "pypto-lib";
  std::error_code ec;
  if (!fs::is_directory(lib, ec)) return library;
  for (fs::directory_iterator it(lib, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (it->is_directory(ec) && !name.empty() && name[0] != '.' && !isSkippedDirectory(name))
      library.folders.push_back(name);
  }
  std::sort(library.folders.begin(), library.folders.end());
  library.read = [lib](const std::string& rel) -> std::optional<SourceFile> {
    std::error_code ec;
    fs::path p = lib / rel;
    if (!fs::is_regular_file(p, ec)) return std::nullopt;
    return readSourceFile(p, "pypto-lib/" + rel).file;
  };
  return library;
}

std::vector<SourceFile> importedLibraryFiles(const LibraryFolder& library, std::span<const SourceFile> unit) {
  std::vector<SourceFile> found;
  if (!library.read) return found;
  std::set<std::string> looked_up;
  auto provided = [&](const std::string& module_path) {
    for (const SourceFile& f : unit)
      if (provides(f.path, module_path)) return true;
    for (const SourceFile& f : found)
      if (provides(f.path, module_path)) return true;
    return false;
  };
  auto visit = [&](const SourceFile& file) {
    for (const std::string& module : importedModules(file.text)) {
      if (found.size() >= kMaxLibraryFiles) return;
      std::string mp = modulePath(module);
      if (!looked_up.insert(mp).second || provided(mp)) continue;
      std::vector<std::string> candidates = {mp + ".py"};
      for (const std::string& folder : library.folders) candidates.push_back(folder + "/" + mp + ".py");
      for (const std::string& rel : candidates) {
        if (std::optional<SourceFile> file = library.read(rel)) {
          found.push_back(std::move(*file));
          break;
        }
      }
    }
  };
  for (const SourceFile& f : unit) visit(f);
  for (std::size_t i = 0; i < found.size(); ++i) {
    SourceFile copy = found[i];  // `found` grows while the file is visited
    visit(copy);
  }
  return found;
}

}  // namespace portcheck::dsl
