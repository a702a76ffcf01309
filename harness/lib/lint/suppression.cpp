#include "lint/suppression.h"

#include <algorithm>

namespace portcheck {

namespace {

constexpr std::string_view kMarker = "port-check:";

bool isBlank(char c) { return c == ' ' || c == '\t'; }

// Parses `ignore[...]` / `ignore-file[...]` at `pos` (just after the marker and blanks).
void parseDirective(const SourceFile& file, std::string_view line, std::size_t line_start, std::size_t pos,
                    int line_no, Suppressions& out) {
  Suppression s;
  s.line = line_no;
  std::string_view rest = line.substr(pos);
  std::size_t open;
  if (rest.starts_with("ignore-file[")) {
    s.file_level = true;
    open = pos + std::string_view("ignore-file[").size();
  } else if (rest.starts_with("ignore[")) {
    open = pos + std::string_view("ignore[").size();
  } else {
    return;
  }
  std::size_t close = line.find(']', open);
  if (close == std::string_view::npos) return;
  std::size_t i = open;
  while (i < close) {
    while (i < close && (isBlank(line[i]) || line[i] == ',')) ++i;
    std::size_t start = i;
    while (i < close && line[i] != ',' && !isBlank(line[i])) ++i;
    if (i > start) {
      SuppressedId id;
      id.id = std::string(line.substr(start, i - start));
      id.line = line_no;
      id.column = file.position(line_start + start).second;
      s.ids.push_back(std::move(id));
    }
  }
  if (!s.ids.empty()) out.entries.push_back(std::move(s));
}

}  // namespace

Suppressions parseSuppressions(const SourceFile& file, std::string_view comment_prefix) {
  Suppressions out;
  std::string_view text = file.text;
  if (comment_prefix.empty() || text.find(kMarker) == std::string_view::npos) return out;
  for (std::size_t pos = 0; (pos = text.find(kMarker, pos)) != std::string_view::npos; pos += kMarker.size()) {
    std::size_t line_start = text.rfind('\n', pos);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::size_t line_end = text.find('\n', pos);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(line_start, line_end - line_start);
    std::size_t at = pos - line_start;
    // The marker must directly follow a comment prefix (blanks allowed in between).
    std::size_t p = at;
    while (p > 0 && isBlank(line[p - 1])) --p;
    if (p < comment_prefix.size() || line.substr(p - comment_prefix.size(), comment_prefix.size()) != comment_prefix)
      continue;
    std::size_t d = at + kMarker.size();
    while (d < line.size() && isBlank(line[d])) ++d;
    parseDirective(file, line, line_start, d, file.position(pos).first, out);
  }
  return out;
}

bool Suppressions::silences(const Diagnostic& d) {
  bool hit = false;
  for (Suppression& s : entries) {
    if (!s.file_level && d.line != s.line && d.line != s.line + 1) continue;
    for (SuppressedId& id : s.ids)
      if (id.id == d.rule) {
        id.used = true;
        hit = true;
      }
  }
  return hit;
}

void Suppressions::apply(const std::string& path, std::vector<Diagnostic>& diagnostics) {
  if (entries.empty()) return;
  std::erase_if(diagnostics, [&](const Diagnostic& d) { return d.file == path && silences(d); });
}

void auditSuppressions(const std::string& path, const Suppressions& sup, const SuppressionAudit& audit,
                       std::vector<Diagnostic>& out) {
  const Catalogue& cat = Catalogue::builtin();
  for (const Suppression& s : sup.entries)
    for (const SuppressedId& id : s.ids) {
      const RuleInfo* rule = cat.find(id.id);
      if (!rule)
        out.push_back(makeDiagnostic(audit.unknown_rule, path, id.line, id.column,
                                     "unknown rule '" + id.id + "' in a port-check suppression"));
      else if (!id.used && id.id != audit.unknown_rule && id.id != audit.unused_rule && audit.judged &&
               audit.judged(*rule))
        out.push_back(makeDiagnostic(audit.unused_rule, path, id.line, id.column,
                                     "unused suppression: " + id.id + " reports nothing " +
                                         (s.file_level ? "in this file" : "on this line or the next"),
                                     "remove '" + id.id + "' from the suppression comment"));
    }
}

}  // namespace portcheck
