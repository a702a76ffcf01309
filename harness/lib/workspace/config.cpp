#include "workspace/config.h"

#include <fnmatch.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rules/catalogue.h"
#include "store/remote_url.h"

namespace portcheck {

using nlohmann::json;

bool globMatch(const std::string& pattern, const std::string& path) {
  return fnmatch(pattern.c_str(), path.c_str(), 0) == 0;
}

RuleSetting Config::settingFor(const std::string& rule, const std::string& file) const {
  RuleSetting s;
  if (auto it = rules.find(rule); it != rules.end()) s = it->second;
  for (const PathOverride& o : per_path)
    if (globMatch(o.glob, file))
      if (auto it = o.rules.find(rule); it != o.rules.end()) s = it->second;
  return s;
}

bool Config::excluded(const std::string& file) const {
  for (const std::string& g : exclude)
    if (globMatch(g, file)) return true;
  return false;
}

void Config::apply(std::vector<Diagnostic>& diagnostics) const {
  std::vector<Diagnostic> kept;
  kept.reserve(diagnostics.size());
  for (Diagnostic& d : diagnostics) {
    if (d.source == Stage::Tool) {  // port-check's own problems cannot be configured away
      kept.push_back(std::move(d));
      continue;
    }
    RuleSetting s = settingFor(d.rule, d.file);
    if (!s.enabled) continue;
    if (s.severity) d.severity = *s.severity;
    kept.push_back(std::move(d));
  }
  diagnostics = std::move(kept);
}

namespace {

struct Parser {
  std::string file;
  std::vector<Diagnostic> problems;

  void problem(Severity sev, const std::string& msg) {
    Diagnostic d = makeDiagnostic("TOOL004", file, 0, 0, msg);
    d.severity = sev;
    problems.push_back(std::move(d));
  }

  std::map<std::string, RuleSetting> ruleMap(const json& j, const std::string& where) {
    std::map<std::string, RuleSetting> out;
    if (!j.is_object()) {
      problem(Severity::Error, where + " must be an object mapping rule IDs to \"off\", \"info\", \"warning\" or \"error\"");
      return out;
    }
    for (const auto& [id, v] : j.items()) {
      if (!Catalogue::builtin().find(id)) problem(Severity::Warning, where + ": unknown rule ID '" + id + "'");
      if (!v.is_string()) {
        problem(Severity::Error, where + "." + id + " must be a string");
        continue;
      }
      std::string s = v.get<std::string>();
      RuleSetting rs;
      if (s == "off") rs.enabled = false;
      else if (auto sev = parseSeverity(s)) rs.severity = sev;
      else if (s != "on") {
        problem(Severity::Error, where + "." + id + ": '" + s + "' is not off, on, info, warning or error");
        continue;
      }
      out[id] = rs;
    }
    return out;
  }

  std::vector<std::string> stringList(const json& j, const std::string& where) {
    std::vector<std::string> out;
    if (!j.is_array()) {
      problem(Severity::Error, where + " must be an array of strings");
      return out;
    }
    for (const json& e : j) {
      if (e.is_string()) out.push_back(e.get<std::string>());
      else problem(Severity::Error, where + " must hold only strings");
    }
    return out;
  }

  void hookSection(const json& j, HookConfig& hook) {
    if (!j.is_object()) {
      problem(Severity::Error, "hook must be an object: {\"paths\": [...], \"compile\": bool, \"on_tool_error\": ...}");
      return;
    }
    for (const auto& [k, v] : j.items()) {
      if (k == "paths") {
        hook.paths = stringList(v, "hook.paths");
      } else if (k == "compile") {
        if (v.is_boolean()) hook.compile = v.get<bool>();
        else problem(Severity::Error, "hook.compile must be true or false");
      } else if (k == "on_tool_error") {
        std::string s = v.is_string() ? v.get<std::string>() : "";
        if (s == "allow" || s == "block") hook.block_on_tool_error = s == "block";
        else problem(Severity::Error, "hook.on_tool_error must be \"allow\" or \"block\"");
      } else {
        problem(Severity::Warning, "hook: unknown key '" + k + "' (ignored)");
      }
    }
  }

  void cacheSection(const json& j, CacheConfig& cache) {
    if (!j.is_object()) {
      problem(Severity::Error,
              "cache must be an object: {\"remote\": \"redis://HOST:PORT\", \"timeout_ms\": 2000, \"max_local_bytes\": N}");
      return;
    }
    for (const auto& [k, v] : j.items()) {
      if (k == "remote") {
        std::string error;
        if (!v.is_string()) problem(Severity::Error, "cache.remote must be a string (redis://HOST:PORT[/DB] or http://HOST:PORT/PATH/)");
        else if (!v.get<std::string>().empty() && !store::parseRemoteUrl(v.get<std::string>(), error))
          problem(Severity::Error, "cache.remote: " + error);
        else cache.remote = v.get<std::string>();
      } else if (k == "timeout_ms") {
        if (v.is_number_integer() && v.get<std::int64_t>() >= 1 && v.get<std::int64_t>() <= 60000)
          cache.timeout_ms = v.get<int>();
        else problem(Severity::Error, "cache.timeout_ms must be a whole number of milliseconds in 1..60000");
      } else if (k == "max_local_bytes") {
        if (v.is_number_integer() && v.get<std::int64_t>() >= 0) cache.max_local_bytes = v.get<std::uint64_t>();
        else problem(Severity::Error, "cache.max_local_bytes must be a whole number of bytes, 0 or more (0: unbounded)");
      } else {
        problem(Severity::Warning, "cache: unknown key '" + k + "' (ignored)");
      }
    }
  }
};

}  // namespace

ConfigLoad parseConfig(const std::string& text, const std::string& display_path) {
  ConfigLoad load;
  Parser p{display_path, {}};
  load.config.path = display_path;
  load.config.text = text;
  json j = json::parse(text, nullptr, false, /*ignore_comments=*/true);
  if (j.is_discarded() || !j.is_object()) {
    p.problem(Severity::Error, "configuration is not a JSON object (port-check.json must be valid JSON)");
    load.problems = std::move(p.problems);
    return load;
  }
  Config& c = load.config;
  for (const auto& [key, v] : j.items()) {
    if (key == "platform") {
      if (!v.is_string() || !parsePlatform(v.get<std::string>()))
        p.problem(Severity::Error, "platform must be \"a2a3\" or \"a5\"");
      else c.platform = parsePlatform(v.get<std::string>());
    } else if (key == "fail_on") {
      std::string s = v.is_string() ? v.get<std::string>() : "";
      if (s != "error" && s != "warning" && s != "info" && s != "never")
        p.problem(Severity::Error, "fail_on must be \"error\", \"warning\", \"info\" or \"never\"");
      else c.fail_on = s;
    } else if (key == "rules") {
      c.rules = p.ruleMap(v, "rules");
    } else if (key == "per_path") {
      if (!v.is_array()) {
        p.problem(Severity::Error, "per_path must be an array of {\"path\": glob, \"rules\": {...}}");
        continue;
      }
      for (const json& o : v) {
        if (!o.is_object() || !o.contains("path") || !o["path"].is_string()) {
          p.problem(Severity::Error, "per_path entries need a string \"path\" glob");
          continue;
        }
        for (const auto& [k, _] : o.items())
          if (k != "path" && k != "rules") p.problem(Severity::Warning, "per_path: unknown key '" + k + "'");
        PathOverride po;
        po.glob = o["path"].get<std::string>();
        if (o.contains("rules")) po.rules = p.ruleMap(o["rules"], "per_path[" + po.glob + "].rules");
        c.per_path.push_back(std::move(po));
      }
    } else if (key == "exclude") {
      c.exclude = p.stringList(v, "exclude");
    } else if (key == "options") {
      if (!v.is_object()) {
        p.problem(Severity::Error, "options must be an object");
        continue;
      }
      for (const auto& [k, ov] : v.items()) c.options[k] = ov.is_string() ? ov.get<std::string>() : ov.dump();
    } else if (key == "hook") {
      p.hookSection(v, c.hook);
    } else if (key == "cache") {
      p.cacheSection(v, c.cache);
    } else if (key == "$schema") {
      // editor hint, ignored
    } else {
      p.problem(Severity::Warning, "unknown configuration key '" + key + "' (ignored)");
    }
  }
  load.problems = std::move(p.problems);
  return load;
}

ConfigLoad loadConfig(const std::filesystem::path& root, const std::optional<std::filesystem::path>& explicit_path,
                      const std::string& display_path) {
  std::filesystem::path path = explicit_path ? *explicit_path : root / "port-check.json";
  std::error_code ec;
  if (!explicit_path && !std::filesystem::exists(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path, ec)) {
    ConfigLoad load;
    load.problems.push_back(makeDiagnostic("TOOL004", display_path, 0, 0, "cannot read configuration file"));
    load.problems.back().severity = Severity::Error;
    return load;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseConfig(ss.str(), display_path);
}

}  // namespace portcheck
