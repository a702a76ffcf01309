#include "tune/config_tree.h"

#include <fstream>
#include <regex>
#include <sstream>

#include "compiler/content_hash.h"

namespace portcheck::tune {

namespace fs = std::filesystem;

std::optional<std::string> withConstant(const std::string& text, const std::string& name, std::int64_t value) {
  // At the start of a line: NAME = value, NAME: int = value (the last assignment wins, as in Python).
  // Groups: 1 the line start, 2 `NAME [: type] = `, 3 the value, 4 a trailing comment.
  const std::string pattern = "(^|\\n)(" + name + R"((?:\s*:\s*[A-Za-z_][\w.]*)?\s*=\s*))" +
                              R"(([^\n#]*?)(\s*(?:#[^\n]*)?)(?=\n|$))";
  const std::regex assignment(pattern);
  std::smatch last;
  bool found = false;
  for (std::sregex_iterator it(text.begin(), text.end(), assignment), end; it != end; ++it) {
    last = *it;
    found = true;
  }
  if (!found) return std::nullopt;
  std::size_t at = static_cast<std::size_t>(last.position(3));
  return text.substr(0, at) + std::to_string(value) + text.substr(at + static_cast<std::size_t>(last.length(3)));
}

namespace {

bool copyFile(const fs::path& from, const fs::path& to, const std::string* replaced, std::string& error) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  if (ec) {
    error = "cannot create " + to.parent_path().string() + ": " + ec.message();
    return false;
  }
  if (replaced) {
    std::ofstream out(to, std::ios::binary);
    out << *replaced;
    if (!out) error = "cannot write " + to.string();
    return static_cast<bool>(out);
  }
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) error = "cannot copy " + from.string() + ": " + ec.message();
  return !ec;
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::optional<CompileTarget> writeConfigTree(const Workspace& ws, const Project& project, const Config& config,
                                             const fs::path& cache_root, std::string& error) {
  const std::string rel_src = fs::relative(project.pypto_src, ws.root).generic_string();
  HashBuilder hash;
  for (const auto& [name, value] : config) hash.add(name, std::to_string(value));
  const fs::path root = cache_root / "tune" / project.name / hash.hex().substr(0, 16);
  std::error_code ec;
  fs::remove_all(root, ec);
  // The port's files, each knob set in the file that assigns it.
  std::map<std::string, bool> assigned;
  for (const auto& [name, value] : config) assigned[name] = false;
  for (fs::recursive_directory_iterator it(project.pypto_src, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file() || isSkippedDirectory(it->path().parent_path().filename().string())) continue;
    fs::path to = root / rel_src / fs::relative(it->path(), project.pypto_src);
    std::optional<std::string> text;
    if (it->path().extension() == ".py") {
      std::string original = readAll(it->path());
      std::string changed = original;
      for (const auto& [name, value] : config)
        if (auto next = withConstant(changed, name, value)) {
          changed = *next;
          assigned[name] = true;
        }
      if (changed != original) text = changed;
    }
    if (!copyFile(it->path(), to, text ? &*text : nullptr, error)) return std::nullopt;
  }
  // The workspace's pypto-lib, where the port's relative sys.path finds it; a block that assigns a knob
  // at module level gets the configuration's value too, as the estimate's screening gave it (a knob
  // proposed from a block stage the port calls is assigned there only).
  const fs::path lib = ws.root / "pypto-lib";
  if (fs::is_directory(lib, ec))
    for (fs::recursive_directory_iterator it(lib, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_regular_file() || it->path().extension() != ".py") continue;
      const std::string original = readAll(it->path());
      std::string changed = original;
      for (const auto& [name, value] : config)
        if (auto next = withConstant(changed, name, value)) {
          changed = *next;
          assigned[name] = true;
        }
      if (!copyFile(it->path(), root / fs::relative(it->path(), ws.root), changed != original ? &changed : nullptr, error))
        return std::nullopt;
    }
  for (const auto& [name, done] : assigned)
    if (!done) {
      error = "no file of " + rel_src + " or pypto-lib assigns " + name + " at module level";
      return std::nullopt;
    }
  CompileTarget t;
  t.name = project.name + "@" + label(config);
  t.tree_root = root;
  t.source_root = root / rel_src;
  t.source_root_display = rel_src;
  t.display_file = rel_src + "/golden.py";
  return t;
}

}  // namespace portcheck::tune
