#include "lint/kernel/suppression.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace portcheck {

namespace {

// Line -> rule IDs suppressed on it.
std::map<int, std::set<std::string>> suppressions(const SourceFile& f) {
  std::map<int, std::set<std::string>> out;
  static constexpr std::string_view kMarker = "port-check: ignore[";
  std::string_view text = f.text;
  for (std::size_t pos = 0; (pos = text.find(kMarker, pos)) != std::string_view::npos;) {
    std::size_t comment = text.rfind("//", pos);
    std::size_t line_start = text.rfind('\n', pos);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::size_t open = pos + kMarker.size();
    std::size_t close = text.find(']', open);
    pos = open;
    if (comment == std::string_view::npos || comment < line_start || close == std::string_view::npos) continue;
    if (text.substr(open, close - open).find('\n') != std::string_view::npos) continue;
    int line = f.position(pos).first;
    std::string ids(text.substr(open, close - open));
    std::size_t start = 0;
    while (start <= ids.size()) {
      std::size_t comma = ids.find(',', start);
      std::string id = ids.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      id.erase(std::remove_if(id.begin(), id.end(), [](char c) { return c == ' ' || c == '\t'; }), id.end());
      if (!id.empty()) {
        out[line].insert(id);
        out[line + 1].insert(id);
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

}  // namespace

void dropSuppressed(const SourceFile& file, std::vector<Diagnostic>& diagnostics) {
  if (file.text.find("port-check: ignore[") == std::string::npos) return;
  auto ignored = suppressions(file);
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    auto it = ignored.find(d.line);
    return it != ignored.end() && it->second.count(d.rule);
  });
}

}  // namespace portcheck
