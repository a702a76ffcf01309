#pragma once
// Path patterns of the hook section ("projects/*/pypto_src/**"), matched the way .gitignore-style
// globs are: '*', '?' and [...] stay within one '/'-separated segment, '**' spans any number of
// segments (including none). Patterns are repository-relative; a leading "/" or "./" is ignored.
#include <string>
#include <string_view>
#include <vector>

namespace portcheck::git {

bool pathPatternMatch(std::string_view pattern, std::string_view path);
bool matchesAny(const std::vector<std::string>& patterns, std::string_view path);
// Whether a folder ("a/b/", trailing '/') can hold a path some pattern matches.
bool folderMayMatch(const std::vector<std::string>& patterns, std::string_view folder);

}  // namespace portcheck::git
