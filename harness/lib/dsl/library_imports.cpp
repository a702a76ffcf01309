#include "dsl/library_imports.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "workspace/workspace.h"

namespace portcheck::dsl {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxLibraryFiles = 64;  // a runaway chain of imports stops here

bool moduleChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// The dotted module name at the start of `s` ("" when none, or when relative).
std::string moduleAt(std::string_view s) {
  s = trimLeft(s);
  std::size_t n = 0;
  while (n < s.size() && moduleChar(s[n])) ++n;
  std::string m(s.substr(0, n));
  if (m.empty() || m.front() == '.' || m.back() == '.' || (m.front() >= '0' && m.front() <= '9')) return "";
  return m;
}

// Counts the triple quotes of a line, to skip lines inside docstrings.
int tripleQuotes(std::string_view line) {
  int n = 0;
  for (std::string_view q : {std::string_view("\"\"\""), std::string_view("'''")})
    for (std::size_t at = line.find(q); at != std::string_view::npos; at = line.find(q, at + 3)) ++n;
  return n;
}

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
  auto add = [&](std::string m) {
    if (!m.empty() && m != "__future__" && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(std::move(m));
  };
  bool in_string = false;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    bool was_in_string = in_string;
    if (tripleQuotes(line) % 2 == 1) in_string = !in_string;
    if (was_in_string) continue;
    std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    line = trimLeft(line);
    if (line.rfind("from ", 0) == 0 || line.rfind("from\t", 0) == 0) {
      std::string_view rest = trimLeft(line.substr(5));
      std::string m = moduleAt(rest);
      std::string_view after = trimLeft(rest.substr(std::min(rest.size(), m.size())));
      if (after.rfind("import", 0) == 0) add(m);
    } else if (line.rfind("import ", 0) == 0 || line.rfind("import\t", 0) == 0) {
      std::string_view rest = line.substr(7);
      while (!rest.empty()) {
        std::size_t comma = rest.find_first_of(",;");
        std::string_view item = rest.substr(0, comma);
        add(moduleAt(item));
        if (comma == std::string_view::npos || rest[comma] == ';') break;
        rest = rest.substr(comma + 1);
      }
    }
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
