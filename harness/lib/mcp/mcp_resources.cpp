#include "mcp/mcp_resources.h"

#include "app/commands.h"
#include "core/embedded_file.h"
#include "rules/catalogue.h"

namespace portcheck::mcp {

namespace {

using nlohmann::json;

constexpr std::string_view kRules = "port-check://rules/";
constexpr std::string_view kSkills = "port-check://skills/";

bool isSkillFile(std::string_view path) {
  return path.rfind("skills/", 0) == 0 && path.size() > 3 && path.substr(path.size() - 3) == ".md";
}

}  // namespace

json resourceList() {
  json list = json::array();
  for (const RuleInfo& r : Catalogue::builtin().rules())
    list.push_back({{"uri", std::string(kRules) + r.id},
                    {"name", r.id},
                    {"title", r.id + " " + r.name},
                    {"description", r.summary},
                    {"mimeType", "text/markdown"}});
  for (std::size_t i = 0; i < kResourceFilesCount; ++i) {
    std::string_view path = kResourceFiles[i].path;
    if (!isSkillFile(path)) continue;
    std::string rel(path.substr(7));
    list.push_back({{"uri", std::string(kSkills) + rel}, {"name", rel}, {"mimeType", "text/markdown"},
                    {"description", "port-check skill pack: " + rel}});
  }
  return {{"resources", list}};
}

json resourceTemplates() {
  return {{"resourceTemplates",
           json::array({{{"uriTemplate", std::string(kRules) + "{id}"},
                         {"name", "rule"},
                         {"description", "a port-check rule's reference: what it checks, why, how to fix, examples"},
                         {"mimeType", "text/markdown"}},
                        {{"uriTemplate", std::string(kSkills) + "{path}"},
                         {"name", "skill"},
                         {"description", "a file of the skill pack, e.g. pypto-porting-workflow/SKILL.md"},
                         {"mimeType", "text/markdown"}}})}};
}

std::optional<json> readResource(const std::string& uri) {
  auto contents = [&](const std::string& text) {
    return json{{"contents", json::array({{{"uri", uri}, {"mimeType", "text/markdown"}, {"text", text}}})}};
  };
  if (uri.rfind(kRules, 0) == 0) {
    const RuleInfo* r = Catalogue::builtin().find(uri.substr(kRules.size()));
    if (r) return contents(ruleMarkdown(*r));
    return std::nullopt;
  }
  if (uri.rfind(kSkills, 0) == 0) {
    std::string path = "skills/" + uri.substr(kSkills.size());
    for (std::size_t i = 0; i < kResourceFilesCount; ++i)
      if (kResourceFiles[i].path == path && isSkillFile(path)) return contents(std::string(kResourceFiles[i].bytes()));
  }
  return std::nullopt;
}

}  // namespace portcheck::mcp
