#include "compiler/source_locator.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

#include "core/text.h"

namespace portcheck {
namespace {

constexpr std::size_t kMaxFiles = 400;
constexpr std::uintmax_t kMaxBytes = 8u << 20;
constexpr std::size_t kMaxLineBytes = 4096;  // longer lines are data, not statements worth locating

int indentOf(const std::string& l) {
  int i = 0;
  while (i < static_cast<int>(l.size()) && (l[static_cast<std::size_t>(i)] == ' ' || l[static_cast<std::size_t>(i)] == '\t')) ++i;
  return i;
}

bool skippedFolder(const std::filesystem::path& dir, const std::filesystem::path& out_dir) {
  std::string name = dir.filename().string();
  if (name.empty()) return false;
  if (name[0] == '.' || name == "__pycache__" || name == "build_output" || name == "passes_dump") return true;
  std::error_code ec;
  return !out_dir.empty() && std::filesystem::equivalent(dir, out_dir, ec);
}

}  // namespace

SourceLocator::SourceLocator(const PathMapper& paths) : paths_(paths) {
  const std::filesystem::path& root = paths.sourceRoot();
  std::error_code ec;
  if (root.empty() || !std::filesystem::is_directory(root, ec)) return;
  std::vector<std::filesystem::path> found;
  std::filesystem::recursive_directory_iterator it(root, std::filesystem::directory_options::skip_permission_denied, ec);
  for (std::filesystem::recursive_directory_iterator end; !ec && it != end && found.size() < kMaxFiles; it.increment(ec)) {
    if (it->is_directory(ec)) {
      if (skippedFolder(it->path(), paths.outDir())) it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() == ".py" && it->is_regular_file(ec) && it->file_size(ec) <= kMaxBytes)
      found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  for (const auto& p : found) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    File f;
    f.display = paths.displayOf(p);
    const std::string text = ss.str();
    for (std::string_view l : splitLines(text)) {
      std::string s(l);
      if (!s.empty() && s.back() == '\r') s.pop_back();
      f.lines.push_back(std::move(s));
    }
    files_.push_back(std::move(f));
  }
}

void SourceLocator::indexGeneratedPto(const std::filesystem::path& out_dir) { pto_.addOutputFolder(out_dir); }

namespace {
// Names come from compiler text: taken literally, `(` or `[` in one made std::regex throw (fuzz_compile_log).
std::string regexEscaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

std::optional<SourceLocator::Region> SourceLocator::defRegion(const std::string& name) const {
  const std::regex def_re("^\\s*(?:async\\s+)?def\\s+" + regexEscaped(name) + "\\s*\\(");
  for (const File& f : files_) {
    for (std::size_t i = 0; i < f.lines.size(); ++i) {
      if (f.lines[i].size() > kMaxLineBytes || f.lines[i].find(name) == std::string::npos ||
          !std::regex_search(f.lines[i], def_re))
        continue;
      Region r;
      r.file = &f;
      r.def_line = static_cast<int>(i) + 1;
      int indent = indentOf(f.lines[i]);
      r.def_column = indent + 1;
      r.end_line = static_cast<int>(f.lines.size());
      for (std::size_t k = i + 1; k < f.lines.size(); ++k) {
        const std::string& l = f.lines[k];
        std::string_view t = trim(l);
        if (t.empty() || t[0] == '#' || t[0] == ')') continue;  // `):` closes a multi-line signature
        if (indentOf(l) <= indent) {
          r.end_line = static_cast<int>(k);
          break;
        }
      }
      return r;
    }
  }
  return std::nullopt;
}

std::optional<SourceLocation> SourceLocator::functionDef(const std::string& name) const {
  auto r = defRegion(name);
  if (!r) return std::nullopt;
  return SourceLocation{r->file->display, r->def_line, r->def_column};
}

std::optional<SourceLocation> SourceLocator::kernel(const std::string& kernel_name) const {
  std::string name = kernel_name;
  for (const char* suffix : {"_aic", "_aiv"})
    if (endsWith(name, suffix)) {
      name = name.substr(0, name.size() - 4);
      break;
    }
  static const std::regex kIncore(R"(^(.+)_incore_(\d+)$)");
  std::smatch m;
  if (std::regex_match(name, m, kIncore)) {
    if (auto r = defRegion(m[1].str())) {
      int wanted = parseIntOr(m[2].str(), -1);
      int seen = 0;
      static const std::regex kScope(R"(^\s*with\s+pl\.at\s*\()");
      for (int ln = r->def_line + 1; ln <= r->end_line; ++ln) {
        const std::string& l = r->file->lines[static_cast<std::size_t>(ln) - 1];
        if (!std::regex_search(l, kScope)) continue;
        if (seen++ == wanted) return SourceLocation{r->file->display, ln, indentOf(l) + 1};
      }
      return SourceLocation{r->file->display, r->def_line, r->def_column};
    }
  }
  // A scope named by its name_hint: the kernel is `<function>_<hint>`, or the hint alone when it starts
  // with the function's name (pypto's OutlineHierarchyScopes).
  for (std::size_t cut = name.find('_'); cut != std::string::npos; cut = name.find('_', cut + 1)) {
    auto r = defRegion(name.substr(0, cut));
    if (!r) continue;
    const std::string hint = name.substr(cut + 1);
    auto names = [&](const std::string& l, const std::string& h) {
      return l.find("name_hint=\"" + h + "\"") != std::string::npos ||
             l.find("name_hint='" + h + "'") != std::string::npos;
    };
    static const std::regex kWith(R"(^\s*with\s)");
    for (int ln = r->def_line + 1; ln <= r->end_line; ++ln) {
      const std::string& l = r->file->lines[static_cast<std::size_t>(ln) - 1];
      if (!names(l, hint) && !names(l, name)) continue;
      // The `with` the hint belongs to (a call spread over lines starts above it).
      for (int up = ln; up > r->def_line && up > ln - 4; --up) {
        const std::string& w = r->file->lines[static_cast<std::size_t>(up) - 1];
        if (std::regex_search(w, kWith)) return SourceLocation{r->file->display, up, indentOf(w) + 1};
      }
      return SourceLocation{r->file->display, ln, indentOf(l) + 1};
    }
  }
  if (auto d = functionDef(name)) return d;
  if (name != kernel_name) return functionDef(kernel_name);
  return std::nullopt;
}

std::string SourceLocator::userVariable(const std::string& compiler_name) {
  std::string v = compiler_name;
  std::size_t dunder = v.find("__");
  if (dunder != std::string::npos && dunder > 0) v = v.substr(0, dunder);
  return v;
}

std::optional<SourceLocation> SourceLocator::assignment(const std::string& variable,
                                                        const std::optional<Region>& within) const {
  if (variable.empty()) return std::nullopt;
  // `x = ...`, `x: T = ...`, `x[...] = ...` (not `x == ...`).
  const std::regex assign_re("^(\\s*)" + regexEscaped(variable) + R"(\s*(?::[^=]*|\[[^\]]*\])?=(?!=))");
  auto scan = [&](const File& f, int from, int to) -> std::optional<SourceLocation> {
    for (int ln = from; ln <= to && ln <= static_cast<int>(f.lines.size()); ++ln) {
      const std::string& l = f.lines[static_cast<std::size_t>(ln) - 1];
      if (l.size() > kMaxLineBytes || l.find(variable) == std::string::npos) continue;
      std::smatch m;
      if (std::regex_search(l, m, assign_re)) return SourceLocation{f.display, ln, static_cast<int>(m[1].length()) + 1};
    }
    return std::nullopt;
  };
  if (within) return scan(*within->file, within->def_line + 1, within->end_line);
  for (const File& f : files_)
    if (auto loc = scan(f, 1, static_cast<int>(f.lines.size()))) return loc;
  return std::nullopt;
}

std::optional<SourceLocation> SourceLocator::tile(const std::string& function, const std::string& var) const {
  if (auto loc = pto_.find(function, var)) {
    SourceLocation l = paths_.location(loc->file, loc->line, loc->column);
    if (paths_.isUserFile(l.file)) return l;
  }
  // The function's own def, else the entry a pl.at scope was outlined from.
  std::string name = function;
  for (const char* suffix : {"_aic", "_aiv"})
    if (endsWith(name, suffix)) name = name.substr(0, name.size() - 4);
  std::optional<Region> region = defRegion(name);
  static const std::regex kIncore(R"(^(.+)_incore_\d+$)");
  std::smatch m;
  if (!region && std::regex_match(name, m, kIncore)) region = defRegion(m[1].str());
  std::string variable = userVariable(var);
  if (variable.empty() || (!std::isalpha(static_cast<unsigned char>(variable[0])) && variable[0] != '_')) return std::nullopt;
  if (region) return assignment(variable, region);
  return assignment(variable, std::nullopt);
}

}  // namespace portcheck
