#include "git/path_patterns.h"

#include <fnmatch.h>

namespace portcheck::git {

namespace {

std::vector<std::string> segments(std::string_view s) {
  while (s.substr(0, 2) == "./") s.remove_prefix(2);
  while (!s.empty() && s.front() == '/') s.remove_prefix(1);
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t slash = s.find('/', start);
    if (slash == std::string_view::npos) slash = s.size();
    if (slash > start) out.emplace_back(s.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

bool segmentMatch(const std::string& pattern, const std::string& name) {
  return fnmatch(pattern.c_str(), name.c_str(), FNM_PATHNAME) == 0;
}

bool matchFrom(const std::vector<std::string>& pat, std::size_t pi, const std::vector<std::string>& path,
               std::size_t si) {
  for (; pi < pat.size(); ++pi, ++si) {
    if (pat[pi] == "**") {
      for (std::size_t k = si; k <= path.size(); ++k)
        if (matchFrom(pat, pi + 1, path, k)) return true;
      return false;
    }
    if (si >= path.size() || !segmentMatch(pat[pi], path[si])) return false;
  }
  return si == path.size();
}

}  // namespace

bool pathPatternMatch(std::string_view pattern, std::string_view path) {
  return matchFrom(segments(pattern), 0, segments(path), 0);
}

bool matchesAny(const std::vector<std::string>& patterns, std::string_view path) {
  for (const std::string& p : patterns)
    if (pathPatternMatch(p, path)) return true;
  return false;
}

bool folderMayMatch(const std::vector<std::string>& patterns, std::string_view folder) {
  std::vector<std::string> dir = segments(folder);
  for (const std::string& p : patterns) {
    std::vector<std::string> pat = segments(p);
    bool possible = true;
    for (std::size_t i = 0; i < dir.size(); ++i) {
      if (i >= pat.size()) {
        possible = false;
        break;
      }
      if (pat[i] == "**") break;
      if (!segmentMatch(pat[i], dir[i])) {
        possible = false;
        break;
      }
    }
    if (possible) return true;
  }
  return false;
}

}  // namespace portcheck::git
