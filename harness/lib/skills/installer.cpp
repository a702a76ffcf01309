#include "skills/installer.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/text.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

struct Manifest {
  std::map<std::string, std::string> files;  // path under .claude/skills -> blob hash
};

Manifest readManifest(const fs::path& path) {
  Manifest m;
  auto text = readWholeFile(path);
  if (!text) return m;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  // An unreadable manifest records nothing: every differing file then counts as edited (safe side).
  if (j.is_discarded() || !j.is_object() || !j.contains("files") || !j["files"].is_object()) return m;
  for (const auto& [k, v] : j["files"].items())
    if (v.is_string()) m.files[k] = v.get<std::string>();
  return m;
}

std::string manifestText(const InstallRequest& r, const std::map<std::string, std::string>& files) {
  nlohmann::ordered_json j;
  j["schema"] = 1;
  j["generator"] = "port-check skills install";
  j["pack"] = r.pack_name;
  j["version"] = r.pack_version;
  j["files"] = nlohmann::ordered_json::object();
  for (const auto& [k, v] : files) j["files"][k] = v;
  return j.dump(2) + "\n";
}

// Removes now-empty folders from `dir` up to (not including) `stop`.
void pruneEmpty(fs::path dir, const fs::path& stop) {
  std::error_code ec;
  while (dir != stop && dir.string().size() > stop.string().size() && fs::is_empty(dir, ec) && !ec) {
    fs::remove(dir, ec);
    dir = dir.parent_path();
  }
}

}  // namespace

InstallOutcome installSkills(const Workspace& ws, const InstallRequest& r) {
  InstallOutcome out;
  fs::path dest = r.target / ".claude" / "skills";
  fs::path manifest_path = dest / kInstallManifest;
  Manifest old = readManifest(manifest_path);

  struct Action {
    std::string rel;
    const std::string* bytes = nullptr;  // null = remove
  };
  std::vector<Action> actions;
  std::map<std::string, std::string> recorded;  // the new manifest
  std::vector<std::pair<std::string, std::string>> edited;  // rel, why

  std::map<std::string, const PackFile*> wanted;
  for (const PackFile& f : r.files) {
    if (!startsWith(f.path, "skills/")) continue;
    wanted[f.path.substr(std::string_view("skills/").size())] = &f;
  }
  for (const auto& [rel, file] : wanted) {
    std::string hash = blobHash(file->bytes);
    recorded[rel] = hash;
    fs::path p = dest / rel;
    auto current = readWholeFile(p);
    if (!current) {
      actions.push_back({rel, &file->bytes});
      continue;
    }
    std::string now = blobHash(*current);
    if (now == hash) {
      ++out.unchanged;
      continue;
    }
    auto rec = old.files.find(rel);
    if (rec != old.files.end() && rec->second == now) {
      actions.push_back({rel, &file->bytes});  // ours and untouched: update
    } else {
      edited.emplace_back(rel, rec == old.files.end() ? "exists and was not installed by port-check"
                                                       : "was edited after port-check installed it");
      actions.push_back({rel, &file->bytes});
    }
  }
  for (const auto& [rel, hash] : old.files) {
    if (wanted.count(rel)) continue;
    auto current = readWholeFile(dest / rel);
    if (!current) continue;
    if (blobHash(*current) != hash) edited.emplace_back(rel, "was edited after port-check installed it and the pack no longer has it");
    actions.push_back({rel, nullptr});
  }

  if (!edited.empty() && !r.force) {
    out.refused = true;
    for (const auto& [rel, why] : edited)
      out.diagnostics.push_back(makeDiagnostic("SKILL019", ws.relative(dest / rel), 0, 0,
                                               "installed skill file " + rel + " " + why + "; nothing was installed"));
    return out;
  }

  for (const Action& a : actions) {
    fs::path p = dest / a.rel;
    if (a.bytes) {
      if (!writeFileAtomically(p, *a.bytes, out.error, /*create_parents=*/true)) return out;
      out.written.push_back(a.rel);
    } else {
      std::error_code ec;
      fs::remove(p, ec);
      if (ec) {
        out.error = "cannot remove " + p.string() + ": " + ec.message();
        return out;
      }
      pruneEmpty(p.parent_path(), dest);
      out.removed.push_back(a.rel);
    }
  }
  std::string text = manifestText(r, recorded);
  auto existing = readWholeFile(manifest_path);
  if (!existing || *existing != text) writeFileAtomically(manifest_path, text, out.error, /*create_parents=*/true);
  return out;
}

}  // namespace portcheck
