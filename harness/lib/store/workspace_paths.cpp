#include "store/workspace_paths.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace portcheck::store {

namespace fs = std::filesystem;

namespace {

std::string jsonEscaped(const std::string& s) {
  std::string quoted = nlohmann::json(s).dump();
  return quoted.substr(1, quoted.size() - 2);
}

std::string withoutTrailingSlashes(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool atPathBoundary(std::string_view text, std::size_t end) {
  return end == text.size() || text[end] == '/' || text[end] == '"' || text[end] == ':';
}

}  // namespace

WorkspacePaths::WorkspacePaths(const fs::path& workspace_root) {
  if (workspace_root.empty()) return;
  std::string given = withoutTrailingSlashes(workspace_root.lexically_normal().generic_string());
  if (given.empty() || given == "/" || given.front() != '/') return;
  given_ = given;
  roots_.push_back(given);
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(workspace_root, ec);
  if (!ec) {
    std::string c = withoutTrailingSlashes(canonical.generic_string());
    if (c != given && c != "/" && !c.empty()) roots_.push_back(c);
  }
  // Longest first: a root that is a prefix of the other must not cut the longer one short.
  std::sort(roots_.begin(), roots_.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
}

std::string WorkspacePaths::keyed(const fs::path& p) const {
  const std::string s = p.lexically_normal().generic_string();
  for (const std::string& root : roots_) {
    if (s.compare(0, root.size(), root) != 0) continue;
    if (s.size() == root.size()) return std::string(kWorkspaceToken);
    if (s[root.size()] == '/') return std::string(kWorkspaceToken) + s.substr(root.size());
  }
  return p.string();
}

std::string WorkspacePaths::keyedSearchPath(std::string_view folders) const {
  std::string out;
  std::size_t start = 0;
  while (true) {
    std::size_t colon = folders.find(':', start);
    std::string_view entry = folders.substr(start, colon == std::string_view::npos ? colon : colon - start);
    if (start > 0) out += ':';
    out += entry.empty() ? std::string() : keyed(fs::path(std::string(entry)));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return out;
}

std::string WorkspacePaths::toPortable(std::string_view text) const {
  if (roots_.empty()) return std::string(text);
  std::vector<std::string> escaped;
  for (const std::string& r : roots_) escaped.push_back(jsonEscaped(r));
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    bool replaced = false;
    if (text[i] == '/') {
      for (const std::string& root : escaped) {
        if (text.compare(i, root.size(), root) == 0 && atPathBoundary(text, i + root.size())) {
          out += kWorkspaceToken;
          i += root.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

std::string WorkspacePaths::toLocal(std::string_view text) const {
  if (roots_.empty()) return std::string(text);
  // The root as given (not canonical) is what this machine's own paths are written with.
  const std::string root = jsonEscaped(given_);
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (true) {
    std::size_t at = text.find(kWorkspaceToken, i);
    out.append(text.substr(i, at == std::string_view::npos ? at : at - i));
    if (at == std::string_view::npos) break;
    out += root;
    i = at + kWorkspaceToken.size();
  }
  return out;
}

}  // namespace portcheck::store
