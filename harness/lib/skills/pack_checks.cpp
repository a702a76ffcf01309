#include "skills/pack_checks.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "core/embedded_file.h"
#include "core/text.h"
#include "rules/catalogue.h"
#include "skills/frontmatter.h"
#include "skills/semver.h"
#include "skills/skill_evals.h"
#include "skills/skill_pack.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

// Top-level frontmatter keys the Agent Skills specification allows (Anthropic's validator rejects others).
const std::set<std::string> kAllowedKeys = {"name", "description", "license", "compatibility", "allowed-tools",
                                            "metadata"};

// Families whose IDs a skill may cite: every family in the catalogue plus the ones the design
// reserves (docs/architecture.md), so a cited-but-missing planned ID is still caught.
std::set<std::string> ruleFamilies() {
  std::set<std::string> f = {"DSL", "AUTO", "ISA", "MEM", "FUSE", "PROJ", "COMP", "PERF", "TOOL", "SKILL", "GOLD",
                             "RUN", "GIT", "HOOK"};
  for (const RuleInfo& r : Catalogue::builtin().rules()) f.insert(r.family);
  return f;
}

int columnOf(std::string_view line, std::size_t byte) { return codePointCount(line.substr(0, byte)) + 1; }

bool embeddedTemplateExists(const std::string& rel) {
  for (std::size_t i = 0; i < kResourceFilesCount; ++i) {
    std::string_view p = kResourceFiles[i].path;
    if (p == rel || (startsWith(p, rel) && p.size() > rel.size() && p[rel.size()] == '/')) return true;
  }
  return false;
}

class PackChecker {
 public:
  PackChecker(const Workspace& ws, const fs::path& root, const PackCheckOptions& o) : ws_(ws), root_(root), opts_(o) {
    std::error_code ec;
    if (!opts_.template_exists) {
      if (fs::is_directory(root_ / "templates", ec)) {
        fs::path base = root_;
        opts_.template_exists = [base](const std::string& rel) {
          std::error_code e;
          return fs::exists(base / rel, e);
        };
      } else {
        opts_.template_exists = embeddedTemplateExists;
      }
    }
    skills_dir_ = fs::weakly_canonical(root_ / "skills", ec);
  }

  std::vector<Diagnostic> run() {
    std::string plugin_version = checkManifests();
    checkChangelog(plugin_version);
    std::error_code ec;
    std::vector<fs::path> dirs;
    for (const fs::directory_entry& e : fs::directory_iterator(root_ / "skills", ec)) {
      std::string leaf = e.path().filename().string();
      if (e.is_directory(ec) && !leaf.empty() && leaf[0] != '.' && !isSkippedDirectory(leaf)) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& d : dirs) checkSkill(d);
    return std::move(out_);
  }

 private:
  std::string rel(const fs::path& p) const { return ws_.relative(p); }

  void add(std::string_view id, const fs::path& file, int line, int col, std::string message, std::string hint = {}) {
    out_.push_back(makeDiagnostic(id, rel(file), line, col, std::move(message), std::move(hint)));
  }

  // Returns the plugin version when plugin.json is valid, else "".
  std::string checkManifests() {
    using nlohmann::json;
    static const std::regex kKebab("[a-z0-9]+(-[a-z0-9]+)*");
    fs::path plugin_path = root_ / kPluginManifest, market_path = root_ / kMarketplaceManifest;
    std::string version, name;
    auto plugin_text = readWholeFile(plugin_path);
    json plugin = plugin_text ? json::parse(*plugin_text, nullptr, false) : json();
    if (!plugin_text) {
      add("SKILL014", plugin_path, 0, 0, "the pack has no .claude-plugin/plugin.json");
    } else if (plugin.is_discarded() || !plugin.is_object()) {
      add("SKILL014", plugin_path, 1, 1, "plugin.json is not a JSON object");
    } else {
      name = plugin.value("name", json()).is_string() ? plugin["name"].get<std::string>() : "";
      std::string v = plugin.value("version", json()).is_string() ? plugin["version"].get<std::string>() : "";
      if (name.empty() || !std::regex_match(name, kKebab))
        add("SKILL014", plugin_path, 1, 1, "plugin.json needs a kebab-case \"name\", got '" + name + "'");
      if (!parseSemVer(v))
        add("SKILL014", plugin_path, 1, 1,
            v.empty() ? "plugin.json has no \"version\"" : "plugin.json version '" + v + "' is not MAJOR.MINOR.PATCH");
      else
        version = v;
    }
    auto market_text = readWholeFile(market_path);
    json market = market_text ? json::parse(*market_text, nullptr, false) : json();
    if (!market_text) {
      add("SKILL014", market_path, 0, 0, "the pack has no .claude-plugin/marketplace.json");
      return version;
    }
    if (market.is_discarded() || !market.is_object()) {
      add("SKILL014", market_path, 1, 1, "marketplace.json is not a JSON object");
      return version;
    }
    std::string mname = market.value("name", json()).is_string() ? market["name"].get<std::string>() : "";
    if (mname.empty() || !std::regex_match(mname, kKebab))
      add("SKILL014", market_path, 1, 1, "marketplace.json needs a kebab-case \"name\", got '" + mname + "'");
    if (!market.contains("owner") || !market["owner"].is_object() || !market["owner"].value("name", json()).is_string())
      add("SKILL014", market_path, 1, 1, "marketplace.json needs \"owner\": {\"name\": ...}");
    if (!market.contains("plugins") || !market["plugins"].is_array() || market["plugins"].empty()) {
      add("SKILL014", market_path, 1, 1, "marketplace.json needs a non-empty \"plugins\" array");
      return version;
    }
    const json* entry = nullptr;
    for (const json& p : market["plugins"]) {
      if (!p.is_object() || !p.value("name", json()).is_string() || !p.contains("source")) {
        add("SKILL014", market_path, 1, 1, "every marketplace plugin entry needs \"name\" and \"source\"");
        continue;
      }
      if (p["name"] == name) entry = &p;
    }
    if (!name.empty() && !entry) {
      add("SKILL015", market_path, 1, 1, "marketplace.json lists no plugin named '" + name + "' (plugin.json's name)");
    } else if (entry && entry->contains("version")) {
      std::string ev = (*entry)["version"].is_string() ? (*entry)["version"].get<std::string>() : "";
      if (!version.empty() && ev != version)
        add("SKILL015", market_path, 1, 1,
            "marketplace entry '" + name + "' has version '" + ev + "' but plugin.json has '" + version + "'");
    }
    return version;
  }

  void checkChangelog(const std::string& version) {
    fs::path path = root_ / kChangelog;
    auto text = readWholeFile(path);
    if (!text) {
      add("SKILL016", path, 0, 0, "the pack has no skills/CHANGELOG.md");
      return;
    }
    static const std::regex kHeading(R"(^##\s+\[?v?([0-9]+\.[0-9]+\.[0-9]+)\]?)");
    std::vector<std::string_view> lines = splitLines(*text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string line(lines[i]);
      std::smatch m;
      if (!std::regex_search(line, m, kHeading)) continue;
      if (!version.empty() && m[1] != version)
        add("SKILL016", path, static_cast<int>(i) + 1, 1,
            "the newest CHANGELOG entry is " + m[1].str() + " but the pack version (plugin.json) is " + version);
      return;
    }
    add("SKILL016", path, 0, 0,
        "skills/CHANGELOG.md has no '## [X.Y.Z]' entry" + (version.empty() ? std::string() : " for " + version));
  }

  void checkSkill(const fs::path& dir) {
    std::string folder = dir.filename().string();
    fs::path skill_md = dir / "SKILL.md";
    auto text = readWholeFile(skill_md);
    if (!text) {
      add("SKILL001", dir, 0, 0, "skill folder '" + folder + "' has no SKILL.md");
      return;
    }
    if (std::string why = skillNameProblem(folder); !why.empty())
      add("SKILL004", dir, 0, 0, "skill folder name '" + folder + "' " + why);
    Frontmatter fm = parseFrontmatter(*text);
    if (!fm.ok) {
      add("SKILL002", skill_md, fm.error_line, 1, fm.error);
    } else {
      checkFrontmatter(skill_md, folder, fm);
      if (fm.body_lines >= kMaxSkillBodyLines)
        add("SKILL009", skill_md, fm.body_first_line, 1,
            "SKILL.md body has " + std::to_string(fm.body_lines) + " lines; keep it under " +
                std::to_string(kMaxSkillBodyLines));
    }
    // References of every Markdown file of the skill.
    std::error_code ec;
    std::vector<fs::path> docs;
    for (fs::recursive_directory_iterator it(dir, ec), end; it != end; it.increment(ec))
      if (it->is_regular_file(ec) && it->path().extension() == ".md") docs.push_back(it->path());
    std::sort(docs.begin(), docs.end());
    for (const fs::path& doc : docs) {
      auto body = doc == skill_md ? text : readWholeFile(doc);
      if (body) checkReferences(doc, *body);
    }
    for (const SkillEvalProblem& p : checkSkillEvals(dir).problems)
      add("SKILL020", p.file, p.line, p.line > 0 ? 1 : 0, p.message, p.hint);
  }

  void checkFrontmatter(const fs::path& file, const std::string& folder, const Frontmatter& fm) {
    for (const FrontmatterEntry& e : fm.entries)
      if (!kAllowedKeys.count(e.key))
        add("SKILL008", file, e.line, 1,
            "frontmatter key '" + e.key + "' is not allowed by the Agent Skills specification" +
                (e.key == "version" ? " (put it under metadata:)" : ""));
    const FrontmatterEntry* name = fm.find("name");
    if (!name || name->value.empty()) {
      add("SKILL002", file, 1, 1, "frontmatter has no 'name'", "add `name: " + folder + "`");
    } else {
      if (std::string why = skillNameProblem(name->value); !why.empty())
        add("SKILL004", file, name->line, 1, "skill name '" + name->value + "' " + why);
      if (name->value != folder)
        add("SKILL003", file, name->line, 1,
            "skill name '" + name->value + "' differs from its folder name '" + folder + "'");
    }
    const FrontmatterEntry* desc = fm.find("description");
    if (!desc || desc->value.empty()) {
      add("SKILL005", file, desc ? desc->line : 1, 1, "frontmatter has no 'description'");
    } else {
      std::size_t n = static_cast<std::size_t>(codePointCount(desc->value));
      if (n > kMaxDescriptionLength)
        add("SKILL005", file, desc->line, 1,
            "description has " + std::to_string(n) + " characters; the limit is " +
                std::to_string(kMaxDescriptionLength));
      if (desc->value.find_first_of("<>") != std::string::npos)
        add("SKILL005", file, desc->line, 1, "description contains '<' or '>'");
      if (desc->value.find("Use when") == std::string::npos)
        add("SKILL006", file, desc->line, 1, "description does not say when to use the skill (\"Use when ...\")");
    }
    const FrontmatterEntry* meta = fm.find("metadata");
    if (!meta || !meta->is_map || !meta->map.count("version")) {
      add("SKILL007", file, meta ? meta->line : 1, 1, "frontmatter has no metadata.version");
    } else if (!parseSemVer(meta->map.at("version"))) {
      add("SKILL007", file, meta->map_lines.at("version"), 1,
          "metadata.version '" + meta->map.at("version") + "' is not MAJOR.MINOR.PATCH");
    }
  }

  void checkReferences(const fs::path& doc, const std::string& text) {
    static const std::regex kLink(R"(\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\))");
    static const std::regex kRuleId(R"(\b([A-Z]{2,6})([0-9]{3})\b)");
    static const std::regex kTemplate(R"((^|[^A-Za-z0-9_./-])(templates/[A-Za-z0-9_./-]*))");
    static const std::set<std::string> families = ruleFamilies();
    std::vector<std::string_view> lines = splitLines(text);
    bool in_fence = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string line(lines[i]);
      int lineno = static_cast<int>(i) + 1;
      std::string_view t = trim(line);
      bool fence_line = startsWith(t, "```") || startsWith(t, "~~~");
      if (fence_line) in_fence = !in_fence;
      // Rule IDs and template paths count everywhere, code blocks included.
      for (auto it = std::sregex_iterator(line.begin(), line.end(), kRuleId); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        if (!families.count(m[1].str())) continue;
        std::string id = m[0].str();
        if (!Catalogue::builtin().find(id))
          add("SKILL012", doc, lineno, columnOf(line, m.position(0)),
              "'" + id + "' is not a rule in the port-check catalogue");
      }
      for (auto it = std::sregex_iterator(line.begin(), line.end(), kTemplate); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        std::string path = m[2].str();
        while (!path.empty() && (path.back() == '.' || path.back() == '/')) path.pop_back();
        if (!opts_.template_exists(path))
          add("SKILL013", doc, lineno, columnOf(line, m.position(2)),
              "'" + path + "' is not a template port-check ships");
      }
      if (in_fence || fence_line) continue;
      // Links, outside code: blank inline code spans first so `[a](b)` in backticks is not a link.
      std::string prose = line;
      for (std::size_t p = 0; (p = prose.find('`', p)) != std::string::npos;) {
        std::size_t q = prose.find('`', p + 1);
        if (q == std::string::npos) break;
        for (std::size_t k = p; k <= q; ++k) prose[k] = ' ';
        p = q + 1;
      }
      for (auto it = std::sregex_iterator(prose.begin(), prose.end(), kLink); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        checkLink(doc, lineno, columnOf(line, m.position(1)), m[1].str());
      }
    }
  }

  void checkLink(const fs::path& doc, int line, int col, std::string target) {
    if (target.empty() || target[0] == '#' || target.find("://") != std::string::npos || startsWith(target, "mailto:"))
      return;
    std::size_t cut = target.find_first_of("#?");
    if (cut != std::string::npos) target.resize(cut);
    if (target.empty()) return;
    std::error_code ec;
    fs::path resolved = (target[0] == '/' ? root_ / target.substr(1) : doc.parent_path() / target).lexically_normal();
    if (!fs::exists(resolved, ec)) {
      add("SKILL010", doc, line, col, "link target '" + target + "' does not exist");
      return;
    }
    fs::path canon = fs::weakly_canonical(resolved, ec);
    fs::path inside = canon.lexically_relative(skills_dir_);
    if (inside.empty() || *inside.begin() == "..")
      add("SKILL011", doc, line, col,
          "link target '" + target + "' is outside skills/ and will be broken once the pack is installed");
  }

  const Workspace& ws_;
  fs::path root_;
  fs::path skills_dir_;
  PackCheckOptions opts_;
  std::vector<Diagnostic> out_;
};

}  // namespace

std::string skillNameProblem(const std::string& name) {
  if (name.empty()) return "is empty";
  if (name.size() > kMaxSkillNameLength) return "is longer than 64 characters";
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return "may only use lower-case letters, digits and '-'";
  if (name.front() == '-' || name.back() == '-') return "must not start or end with '-'";
  if (name.find("--") != std::string::npos) return "must not contain '--'";
  return {};
}

std::vector<Diagnostic> checkSkillPack(const Workspace& ws, const fs::path& root, const PackCheckOptions& options) {
  return PackChecker(ws, root, options).run();
}

}  // namespace portcheck
