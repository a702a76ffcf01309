#include "core/cache_json.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace portcheck {

using nlohmann::json;

namespace {

json diagnosticJson(const Diagnostic& d) {
  json j = {{"rule", d.rule},
            {"severity", std::string(toString(d.severity))},
            {"source", std::string(toString(d.source))},
            {"file", d.file},
            {"line", d.line},
            {"column", d.column},
            {"end_line", d.end_line},
            {"end_column", d.end_column},
            {"message", d.message},
            {"hint", d.hint},
            {"doc", d.doc}};
  if (d.sram) j["sram"] = {{"function", d.sram->function}, {"space", d.sram->space}, {"used", d.sram->used},
                           {"limit", d.sram->limit}};
  json notes = json::array();
  for (const auto& n : d.notes) notes.push_back({{"file", n.file}, {"line", n.line}, {"column", n.column}, {"message", n.message}});
  j["notes"] = notes;
  return j;
}

Diagnostic diagnosticFromJson(const json& j) {
  Diagnostic d;
  d.rule = j.at("rule").get<std::string>();
  auto sev = parseSeverity(j.at("severity").get<std::string>());
  auto src = parseStage(j.at("source").get<std::string>());
  if (!sev || !src) throw std::runtime_error("bad severity or source");
  d.severity = *sev;
  d.source = *src;
  d.file = j.at("file").get<std::string>();
  d.line = j.at("line").get<int>();
  d.column = j.at("column").get<int>();
  d.end_line = j.at("end_line").get<int>();
  d.end_column = j.at("end_column").get<int>();
  d.message = j.at("message").get<std::string>();
  d.hint = j.at("hint").get<std::string>();
  d.doc = j.at("doc").get<std::string>();
  if (j.contains("sram")) {
    const json& s = j["sram"];
    d.sram = SramFigures{s.at("function").get<std::string>(), s.at("space").get<std::string>(),
                         s.at("used").get<std::int64_t>(), s.at("limit").get<std::int64_t>()};
  }
  for (const json& n : j.at("notes"))
    d.notes.push_back({n.at("file").get<std::string>(), n.at("line").get<int>(), n.at("column").get<int>(),
                       n.at("message").get<std::string>()});
  return d;
}

json sramJson(const SramRow& r) {
  json tiles = json::array();
  for (const SramTile& t : r.largest) tiles.push_back({{"name", t.name}, {"bytes", t.bytes}, {"file", t.file}, {"line", t.line}});
  json j = {{"project", r.project}, {"function", r.function}, {"core", r.core}, {"space", r.space},
            {"capacity", r.capacity}, {"tiles", r.tiles}, {"largest", tiles}};
  j["estimate"] = r.estimate ? json(*r.estimate) : json(nullptr);
  j["actual"] = r.actual ? json(*r.actual) : json(nullptr);
  j["actual_source"] = r.actual_source;
  return j;
}

SramRow sramFromJson(const json& j) {
  SramRow r;
  r.project = j.at("project").get<std::string>();
  r.function = j.at("function").get<std::string>();
  r.core = j.at("core").get<std::string>();
  r.space = j.at("space").get<std::string>();
  r.capacity = j.at("capacity").get<std::int64_t>();
  r.tiles = j.at("tiles").get<int>();
  if (!j.at("estimate").is_null()) r.estimate = j["estimate"].get<std::int64_t>();
  if (!j.at("actual").is_null()) r.actual = j["actual"].get<std::int64_t>();
  r.actual_source = j.value("actual_source", std::string());
  for (const json& t : j.at("largest"))
    r.largest.push_back({t.at("name").get<std::string>(), t.at("bytes").get<std::int64_t>(),
                         t.at("file").get<std::string>(), t.at("line").get<int>()});
  return r;
}

}  // namespace

json cacheEntryJson(int schema, const std::string& key, const std::vector<Diagnostic>& diagnostics,
                    const std::vector<SramRow>& sram) {
  json ds = json::array(), rows = json::array();
  for (const Diagnostic& d : diagnostics) ds.push_back(diagnosticJson(d));
  for (const SramRow& r : sram) rows.push_back(sramJson(r));
  return {{"schema", schema}, {"key", key}, {"diagnostics", ds}, {"sram", rows}};
}

std::optional<CacheEntry> readCacheEntry(const std::filesystem::path& path, int schema, const std::string& key) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return parseCacheEntry(text, schema, key);
}

std::optional<CacheEntry> parseCacheEntry(std::string_view text, int schema, const std::string& key) {
  try {
    CacheEntry e;
    e.json = json::parse(text);
    if (e.json.at("schema").get<int>() != schema || e.json.at("key").get<std::string>() != key) return std::nullopt;
    for (const json& d : e.json.at("diagnostics")) e.diagnostics.push_back(diagnosticFromJson(d));
    for (const json& r : e.json.at("sram")) e.sram.push_back(sramFromJson(r));
    return e;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace portcheck
