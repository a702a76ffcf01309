#include "rules/catalogue.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>

#include "core/embedded_file.h"
#include "core/json_fields.h"
#include "core/text.h"

namespace portcheck {
namespace {

using nlohmann::json;

std::string requireString(const json& j, const char* key, const std::string& path) {
  if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
    throw std::runtime_error(path + ": missing or empty string field '" + key + "'");
  return j[key].get<std::string>();
}

std::vector<RuleExample> examples(const json& j, const char* key, const std::string& path) {
  std::vector<RuleExample> out;
  if (!j.contains("examples") || !j["examples"].contains(key)) return out;
  const json& list = j["examples"][key];
  if (!list.is_array()) throw std::runtime_error(path + ": examples." + key + " must be an array");
  for (const json& e : list) {
    RuleExample ex;
    ex.language = requireString(e, "language", path);
    ex.code = requireString(e, "code", path);
    out.push_back(std::move(ex));
  }
  return out;
}

RuleInfo parseRecord(const std::string& path, const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw std::runtime_error(path + ": not a JSON object");
  RuleInfo r;
  r.path = path;
  r.id = requireString(j, "id", path);
  r.name = requireString(j, "name", path);
  r.family = requireString(j, "family", path);
  static const std::regex kId("[A-Z]+[0-9]{3}");
  static const std::regex kSlug("[a-z0-9]+(-[a-z0-9]+)*");
  if (!std::regex_match(r.id, kId)) throw std::runtime_error(path + ": id '" + r.id + "' is not FAMILY + 3 digits");
  if (!startsWith(r.id, r.family)) throw std::runtime_error(path + ": id '" + r.id + "' does not start with its family");
  if (!std::regex_match(r.name, kSlug)) throw std::runtime_error(path + ": name '" + r.name + "' is not kebab-case");
  auto sev = parseSeverity(requireString(j, "severity", path));
  if (!sev) throw std::runtime_error(path + ": severity must be error, warning or info");
  r.severity = *sev;
  auto src = parseStage(requireString(j, "source", path));
  if (!src) throw std::runtime_error(path + ": unknown source stage");
  r.source = *src;
  r.summary = requireString(j, "summary", path);
  r.description = requireString(j, "description", path);
  r.rationale = requireString(j, "rationale", path);
  r.hint = requireString(j, "hint", path);
  r.bad = examples(j, "bad", path);
  r.good = examples(j, "good", path);
  if (j.contains("references") && j["references"].is_array())
    for (const json& ref : j["references"])
      if (ref.is_string()) r.references.push_back(ref.get<std::string>());
  r.since = jsonString(j, "since");
  return r;
}

}  // namespace

std::string RuleInfo::docAnchor() const { return "docs/rules.md#" + toLower(id); }

Catalogue Catalogue::fromRecords(const std::vector<std::pair<std::string, std::string>>& records) {
  Catalogue c;
  for (const auto& [path, text] : records) {
    if (endsWith(path, "catalogue.json")) {
      json j = json::parse(text, nullptr, false);
      if (j.is_discarded() || !j.contains("version") || !j["version"].is_string())
        throw std::runtime_error(path + ": needs a string 'version'");
      c.version_ = j["version"].get<std::string>();
      continue;
    }
    c.rules_.push_back(parseRecord(path, text));
  }
  std::sort(c.rules_.begin(), c.rules_.end(), [](const RuleInfo& a, const RuleInfo& b) { return a.id < b.id; });
  for (std::size_t i = 1; i < c.rules_.size(); ++i)
    if (c.rules_[i].id == c.rules_[i - 1].id)
      throw std::runtime_error("duplicate rule id " + c.rules_[i].id + " in " + c.rules_[i - 1].path + " and " +
                               c.rules_[i].path);
  return c;
}

const Catalogue& Catalogue::builtin() {
  static const Catalogue kBuiltin = [] {
    Catalogue c;
    for (std::size_t i = 0; i < kCatalogueFilesCount; ++i) {
      std::string path = kCatalogueFiles[i].path;
      if (endsWith(path, "catalogue.json")) {
        c.version_ = fromRecords({{path, std::string(kCatalogueFiles[i].bytes())}}).version_;
        continue;
      }
      auto record = std::make_unique<LazyRecord>();
      std::size_t slash = path.rfind('/');
      record->id = path.substr(slash == std::string::npos ? 0 : slash + 1);
      if (endsWith(record->id, ".json")) record->id.resize(record->id.size() - 5);
      record->path = path;
      record->text = kCatalogueFiles[i].bytes();
      c.lazy_.push_back(std::move(record));
    }
    std::sort(c.lazy_.begin(), c.lazy_.end(), [](const auto& a, const auto& b) { return a->id < b->id; });
    for (std::size_t i = 1; i < c.lazy_.size(); ++i)
      if (c.lazy_[i]->id == c.lazy_[i - 1]->id)
        throw std::runtime_error("duplicate rule id " + c.lazy_[i]->id + " in " + c.lazy_[i - 1]->path + " and " +
                                 c.lazy_[i]->path);
    return c;
  }();
  return kBuiltin;
}

const RuleInfo& Catalogue::parsed(LazyRecord& record) const {
  std::call_once(record.once, [&] {
    RuleInfo info = parseRecord(record.path, std::string(record.text));
    if (info.id != record.id)
      throw std::runtime_error(record.path + ": id '" + info.id + "' does not match the file name");
    record.info = std::move(info);
  });
  return *record.info;
}

const std::vector<RuleInfo>& Catalogue::rules() const {
  if (!lazy_.empty())
    std::call_once(*all_parsed_, [&] {
      for (const auto& record : lazy_) rules_.push_back(parsed(*record));
    });
  return rules_;
}

const RuleInfo* Catalogue::find(std::string_view id) const {
  if (!lazy_.empty()) {
    auto it = std::lower_bound(lazy_.begin(), lazy_.end(), id,
                               [](const auto& r, std::string_view v) { return r->id < v; });
    return it != lazy_.end() && (*it)->id == id ? &parsed(**it) : nullptr;
  }
  auto it = std::lower_bound(rules_.begin(), rules_.end(), id,
                             [](const RuleInfo& r, std::string_view v) { return r.id < v; });
  return it != rules_.end() && it->id == id ? &*it : nullptr;
}

Diagnostic makeDiagnostic(std::string_view rule_id, std::string file, int line, int column, std::string message,
                          std::string hint) {
  const RuleInfo* info = Catalogue::builtin().find(rule_id);
  if (!info) throw std::logic_error("rule " + std::string(rule_id) + " is not in the catalogue");
  Diagnostic d;
  d.rule = info->id;
  d.severity = info->severity;
  d.source = info->source;
  d.file = std::move(file);
  d.line = line;
  d.column = column;
  d.message = std::move(message);
  d.hint = hint.empty() ? info->hint : std::move(hint);
  d.doc = info->docAnchor();
  return d;
}

}  // namespace portcheck
