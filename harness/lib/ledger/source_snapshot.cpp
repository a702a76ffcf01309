#include "ledger/source_snapshot.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/text.h"

namespace portcheck::ledger {

using nlohmann::json;

Snapshot takeSnapshot(const ProjectSources& sources, int attempt) {
  Snapshot s;
  s.attempt = attempt;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < sources.files.size(); ++i) {
    const SourceFile& f = sources.files[i];
    SnapshotFile entry{sources.hashes[i].hash, std::nullopt};
    if (f.text.size() <= kMaxSnapshotFileBytes && kept + f.text.size() <= kMaxSnapshotBytes && isValidUtf8(f.text)) {
      entry.text = f.text;
      kept += f.text.size();
    }
    s.files[f.path] = std::move(entry);
  }
  return s;
}

std::optional<Snapshot> readSnapshot(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  try {
    Snapshot s;
    s.attempt = j.at("attempt").get<int>();
    for (const json& f : j.at("files")) {
      SnapshotFile entry{f.at("hash").get<std::string>(), std::nullopt};
      if (!f.at("text").is_null()) entry.text = f.at("text").get<std::string>();
      s.files[f.at("path").get<std::string>()] = std::move(entry);
    }
    return s;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

bool writeSnapshot(const std::filesystem::path& file, const Snapshot& snapshot, std::string& error) {
  json files = json::array();
  for (const auto& [path, f] : snapshot.files)
    files.push_back({{"path", path}, {"hash", f.hash}, {"text", f.text ? json(*f.text) : json(nullptr)}});
  json j = {{"schema", 1}, {"attempt", snapshot.attempt}, {"files", files}};
  return writeFileAtomically(file, j.dump(-1, ' ', false, json::error_handler_t::replace), error, true);
}

std::vector<FileChange> changesSince(const Snapshot& before, const ProjectSources& now) {
  std::vector<FileChange> out;
  std::map<std::string, const SourceFile*> current;
  for (const SourceFile& f : now.files) current[f.path] = &f;
  std::map<std::string, std::string> hashes;
  for (const FileHash& h : now.hashes) hashes[h.path] = h.hash;
  // Both maps are ordered by path, so the changes come out sorted.
  std::map<std::string, FileChange> changes;
  for (const auto& [path, file] : current) {
    auto old = before.files.find(path);
    if (old == before.files.end()) {
      FileChange c{path, "added", {}, true, {}, {}};
      int lines = static_cast<int>(splitLines(file->text).size());
      if (lines > 0) c.hunks.push_back({0, 0, 1, lines});
      changes[path] = std::move(c);
      continue;
    }
    if (old->second.hash == hashes[path]) continue;
    FileChange c{path, "modified", {}, old->second.text.has_value(), {}, {}};
    if (old->second.text) c.hunks = diffLines(*old->second.text, file->text);
    changes[path] = std::move(c);
  }
  for (const auto& [path, file] : before.files)
    if (!current.count(path)) changes[path] = FileChange{path, "removed", {}, true, {}, {}};
  for (auto& [path, c] : changes) out.push_back(std::move(c));
  return out;
}

}  // namespace portcheck::ledger
