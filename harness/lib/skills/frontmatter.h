#pragma once
// The YAML frontmatter of a SKILL.md: the subset skills use (scalars, quoted scalars, folded and
// literal block scalars, one level of nested mapping such as `metadata:`, flow maps `{k: v}`).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck {

struct FrontmatterEntry {
  std::string key;
  int line = 0;                              // 1-based line of `key:`
  std::string value;                         // scalar value (unquoted, block scalars joined)
  bool is_map = false;                       // `key:` followed by indented `sub: value` lines or `{...}`
  std::map<std::string, std::string> map;    // the nested entries when is_map
  std::map<std::string, int> map_lines;      // 1-based line of each nested entry
};

struct Frontmatter {
  bool ok = false;             // a well-formed block was found
  std::string error;           // why not, when !ok
  int error_line = 0;          // 1-based; 0 when not tied to a line
  std::vector<FrontmatterEntry> entries;
  int body_first_line = 1;     // 1-based line where the body starts
  int body_lines = 0;          // number of lines in the body

  const FrontmatterEntry* find(std::string_view key) const;
};

Frontmatter parseFrontmatter(std::string_view text);

}  // namespace portcheck
