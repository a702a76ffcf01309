#pragma once
// port-check.json: platform, failing severity, per-rule settings, per-path overrides, excludes.
#include <filesystem>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/platform.h"

namespace portcheck {

// A rule setting: off, or a severity that replaces the rule's default.
struct RuleSetting {
  bool enabled = true;
  std::optional<Severity> severity;
};

struct PathOverride {
  std::string glob;  // fnmatch pattern on the workspace-relative path; '*' also matches '/'
  std::map<std::string, RuleSetting> rules;
};

// The "hook" section: what the git pre-commit hook (and lint --staged/--changed-since) checks.
struct HookConfig {
  // Repository-relative path patterns: '*' stays within one segment, '**' spans any number.
  std::vector<std::string> paths = {"projects/*/pypto_src/**", "pypto-lib/**"};
  bool compile = false;              // also run the compile stage on the staged content
  bool block_on_tool_error = false;  // "on_tool_error": "block"; default "allow" lets the commit through
};

// The "cache" section: the shared cache tier (docs/shared-cache.md).
struct CacheConfig {
  std::optional<std::string> remote;  // redis://HOST:PORT[/DB] or http://HOST:PORT/PATH/; "" = none
  int timeout_ms = 2000;              // each remote call; 1..60000
  std::uint64_t max_local_bytes = 0;  // 0 = the local tier is unbounded
};

struct Config {
  std::optional<Platform> platform;
  std::optional<std::string> fail_on;
  std::map<std::string, RuleSetting> rules;
  std::vector<PathOverride> per_path;
  std::vector<std::string> exclude;  // globs of workspace-relative paths never checked
  std::map<std::string, std::string> options;  // free-form per-family options, e.g. "fuse.low_usage_percent"
  HookConfig hook;
  CacheConfig cache;
  std::string path;  // where it was read from ("" = defaults)
  std::string text;  // the file as read ("" = defaults): part of the lint cache key

  // Effective setting of `rule` for `file` (per-path overrides apply in order, last wins).
  RuleSetting settingFor(const std::string& rule, const std::string& file) const;
  bool excluded(const std::string& file) const;
  // Applies settings to diagnostics: drops disabled rules, rewrites severities.
  void apply(std::vector<Diagnostic>& diagnostics) const;
};

struct ConfigLoad {
  Config config;
  std::vector<Diagnostic> problems;  // TOOL004: unknown keys (warning), wrong types or bad JSON (error)
};

ConfigLoad parseConfig(const std::string& text, const std::string& display_path);
// Reads `explicit_path` when given, else <root>/port-check.json when present, else defaults.
ConfigLoad loadConfig(const std::filesystem::path& root, const std::optional<std::filesystem::path>& explicit_path,
                      const std::string& display_path);

bool globMatch(const std::string& pattern, const std::string& path);

}  // namespace portcheck
