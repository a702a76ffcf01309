#include "compiler/path_mapper.h"

#include <algorithm>
#include <system_error>

#include "core/text.h"

namespace portcheck {
namespace {

std::string withoutTrailingSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// `rest` of `path` below folder `root` ("a/b" under "a" -> "b"), or nullopt.
std::optional<std::string> below(std::string_view path, std::string_view root) {
  if (root.empty() || !startsWith(path, root)) return std::nullopt;
  if (path.size() == root.size()) return std::string();
  if (path[root.size()] != '/') return std::nullopt;
  return std::string(path.substr(root.size() + 1));
}

std::string join(const std::string& folder, const std::string& rest) {
  if (rest.empty()) return folder;
  if (folder.empty()) return rest;
  return folder + "/" + rest;
}

}  // namespace

PathMapper::PathMapper(const CompileRecord& record)
    : prefixes_(record.path_map),
      source_root_(record.source_root.lexically_normal()),
      out_dir_(record.out_dir.lexically_normal()),
      workspace_root_(record.workspace_root.lexically_normal()),
      source_display_(withoutTrailingSlash(record.source_root_display)) {
  std::stable_sort(prefixes_.begin(), prefixes_.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  prefixes_.erase(std::remove_if(prefixes_.begin(), prefixes_.end(), [](const auto& p) { return p.first.empty(); }),
                  prefixes_.end());
  if (!record.out_dir_display.empty()) {
    out_display_ = withoutTrailingSlash(record.out_dir_display);
  } else if (!record.out_dir.empty()) {
    std::string mapped = map(withoutTrailingSlash(out_dir_.generic_string()) + "/");
    out_display_ = withoutTrailingSlash(mapped);
  }
}

std::string PathMapper::map(std::string_view path) const {
  for (const auto& [from, to] : prefixes_)
    if (startsWith(path, from)) return to + std::string(path.substr(from.size()));
  std::string p(path);
  std::string src = withoutTrailingSlash(source_root_.generic_string());
  std::string out = withoutTrailingSlash(out_dir_.generic_string());
  auto in_src = source_root_.empty() ? std::nullopt : below(p, src);
  auto in_out = out_dir_.empty() || out_display_.empty() ? std::nullopt : below(p, out);
  if (in_src && in_out) return out.size() >= src.size() ? join(out_display_, *in_out) : join(source_display_, *in_src);
  if (in_out) return join(out_display_, *in_out);
  if (in_src) return join(source_display_, *in_src);
  // A relative path the compiler printed from the user's folder (the adapter runs there).
  if (!p.empty() && p[0] != '/' && p[0] != '<' && !source_root_.empty()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(source_root_ / p, ec)) return join(source_display_, p);
  }
  return p;
}

std::string PathMapper::mapText(std::string_view text) const {
  std::string s(text);
  for (const auto& [from, to] : prefixes_) s = replaceAll(std::move(s), from, to);
  std::string src = withoutTrailingSlash(source_root_.generic_string());
  std::string out = withoutTrailingSlash(out_dir_.generic_string());
  // Longer root first so a source root inside the output folder (or the reverse) maps right.
  std::vector<std::pair<std::string, std::string>> roots;
  if (!source_root_.empty() && src != "/") roots.emplace_back(src + "/", source_display_.empty() ? "" : source_display_ + "/");
  if (!out_dir_.empty() && out != "/" && !out_display_.empty()) roots.emplace_back(out + "/", out_display_ + "/");
  std::sort(roots.begin(), roots.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [from, to] : roots) s = replaceAll(std::move(s), from, to);
  return s;
}

SourceLocation PathMapper::location(std::string_view file, int line, int column) const {
  SourceLocation loc;
  loc.file = map(file);
  loc.line = line;
  loc.column = column;
  return loc;
}

bool PathMapper::isUserFile(std::string_view display) const {
  if (!source_display_.empty() && below(display, source_display_).has_value() &&
      display.size() > source_display_.size())
    return true;
  return workspaceFile(display).has_value();
}

std::optional<std::filesystem::path> PathMapper::workspaceFile(std::string_view display) const {
  if (workspace_root_.empty() || display.empty() || display.front() == '/' || display.front() == '<') return std::nullopt;
  if (isOutputFile(display)) return std::nullopt;
  std::filesystem::path rel{std::string(display)};
  for (const std::filesystem::path& part : rel)
    if (part == ".." || part == ".port-check-cache") return std::nullopt;
  std::error_code ec;
  std::filesystem::path candidate = workspace_root_ / rel;
  if (!std::filesystem::is_regular_file(candidate, ec)) return std::nullopt;
  return candidate;
}

bool PathMapper::isOutputFile(std::string_view display) const {
  if (out_display_.empty()) return false;
  return below(display, out_display_).has_value() && display.size() > out_display_.size();
}

std::optional<std::filesystem::path> PathMapper::onDisk(std::string_view display) const {
  std::filesystem::path candidate;
  if (auto rest = below(display, source_display_); rest && !source_display_.empty() && !source_root_.empty())
    candidate = source_root_ / *rest;
  else if (auto rest2 = below(display, out_display_); rest2 && !out_display_.empty() && !out_dir_.empty())
    candidate = out_dir_ / *rest2;
  else
    return workspaceFile(display);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(candidate, ec)) return std::nullopt;
  return candidate;
}

std::string PathMapper::displayOf(const std::filesystem::path& absolute) const {
  std::string p = absolute.lexically_normal().generic_string();
  std::string src = withoutTrailingSlash(source_root_.generic_string());
  std::string out = withoutTrailingSlash(out_dir_.generic_string());
  auto in_src = source_root_.empty() ? std::nullopt : below(p, src);
  auto in_out = out_dir_.empty() || out_display_.empty() ? std::nullopt : below(p, out);
  // The deeper root wins: an output folder inside the source folder is still the output folder.
  if (in_src && in_out) return out.size() >= src.size() ? join(out_display_, *in_out) : join(source_display_, *in_src);
  if (in_out) return join(out_display_, *in_out);
  if (in_src) return join(source_display_, *in_src);
  return map(p);
}

}  // namespace portcheck
