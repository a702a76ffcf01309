#include "skills/release_check.h"

#include <git2.h>

#include <map>
#include <memory>
#include <set>

#include "core/text.h"
#include "rules/catalogue.h"
#include "skills/frontmatter.h"
#include "skills/skill_pack.h"

namespace portcheck {

namespace fs = std::filesystem;

namespace {

struct RepoFree { void operator()(git_repository* r) const { git_repository_free(r); } };
struct ObjFree { void operator()(git_object* o) const { git_object_free(o); } };
struct TreeFree { void operator()(git_tree* t) const { git_tree_free(t); } };
struct EntryFree { void operator()(git_tree_entry* e) const { git_tree_entry_free(e); } };
using Repo = std::unique_ptr<git_repository, RepoFree>;
using Object = std::unique_ptr<git_object, ObjFree>;
using Tree = std::unique_ptr<git_tree, TreeFree>;
using Entry = std::unique_ptr<git_tree_entry, EntryFree>;

// path (relative to the skill folder) -> blob id
using FileSet = std::map<std::string, std::string>;

struct WalkState {
  git_repository* repo;
  std::map<std::string, FileSet>* skills;  // skill name -> files
};

// Collects the blobs of a tagged skills/ tree, grouped by top-level folder.
int collectBlob(const char* root, const git_tree_entry* entry, void* payload) {
  if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) return 0;
  auto* state = static_cast<WalkState*>(payload);
  std::string path = std::string(root) + git_tree_entry_name(entry);
  std::size_t slash = path.find('/');
  if (slash == std::string::npos) return 0;  // pack-level file (CHANGELOG.md, README.md)
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, git_tree_entry_id(entry));
  (*state->skills)[path.substr(0, slash)][path.substr(slash + 1)] = hex;
  return 0;
}

std::optional<std::string> blobText(git_repository* repo, git_tree* tree, const std::string& path) {
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree, path.c_str()) != 0) return std::nullopt;
  Entry entry(raw);
  git_blob* blob = nullptr;
  if (git_blob_lookup(&blob, repo, git_tree_entry_id(entry.get())) != 0) return std::nullopt;
  std::string text(static_cast<const char*>(git_blob_rawcontent(blob)), static_cast<std::size_t>(git_blob_rawsize(blob)));
  git_blob_free(blob);
  return text;
}

std::optional<SemVer> skillVersion(std::string_view skill_md) {
  Frontmatter fm = parseFrontmatter(skill_md);
  const FrontmatterEntry* meta = fm.ok ? fm.find("metadata") : nullptr;
  if (!meta || !meta->map.count("version")) return std::nullopt;
  return parseSemVer(meta->map.at("version"));
}

int versionLine(std::string_view skill_md) {
  Frontmatter fm = parseFrontmatter(skill_md);
  const FrontmatterEntry* meta = fm.ok ? fm.find("metadata") : nullptr;
  if (meta && meta->map_lines.count("version")) return meta->map_lines.at("version");
  return 1;
}

std::string lastError() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

}  // namespace

std::optional<std::pair<std::string, SemVer>> newestReleaseTag(const std::vector<std::string>& names) {
  std::optional<std::pair<std::string, SemVer>> best;
  for (const std::string& n : names) {
    if (!startsWith(n, kReleaseTagPrefix)) continue;
    auto v = parseSemVer(std::string_view(n).substr(std::string_view(kReleaseTagPrefix).size()));
    if (v && (!best || best->second < *v)) best = {{n, *v}};
  }
  return best;
}

ReleaseCheckOutcome checkReleaseBump(const Workspace& ws, const fs::path& pack_root) {
  static const int kInit = git_libgit2_init();
  (void)kInit;
  ReleaseCheckOutcome out;
  std::error_code ec;
  fs::path root = fs::weakly_canonical(fs::absolute(pack_root), ec);

  git_repository* raw_repo = nullptr;
  if (git_repository_open_ext(&raw_repo, root.c_str(), 0, nullptr) != 0) {
    out.detail = "not inside a git repository, so there is no release tag to compare with";
    return out;
  }
  Repo repo(raw_repo);
  const char* workdir = git_repository_workdir(repo.get());
  if (!workdir) {
    out.detail = "the git repository has no working tree";
    return out;
  }
  fs::path wd = fs::weakly_canonical(fs::path(workdir), ec);
  std::string prefix = root.lexically_relative(wd).generic_string();
  if (prefix == ".") prefix.clear();
  if (!prefix.empty()) prefix += "/";

  git_strarray tags{};
  if (git_tag_list_match(&tags, (std::string(kReleaseTagPrefix) + "*").c_str(), repo.get()) != 0) {
    out.detail = "cannot list tags: " + lastError();
    return out;
  }
  std::vector<std::string> names(tags.strings, tags.strings + tags.count);
  git_strarray_dispose(&tags);
  auto newest = newestReleaseTag(names);
  if (!newest) {
    out.detail = "no skills-vX.Y.Z release tag yet";
    return out;
  }
  out.tag = newest->first;

  git_object* raw_tree = nullptr;
  if (git_revparse_single(&raw_tree, repo.get(), ("refs/tags/" + out.tag + "^{tree}").c_str()) != 0) {
    out.detail = "cannot read the tree of " + out.tag + ": " + lastError();
    return out;
  }
  Object tree_obj(raw_tree);
  auto* tag_tree = reinterpret_cast<git_tree*>(tree_obj.get());

  // Tagged skills.
  std::map<std::string, FileSet> tagged;
  git_tree_entry* raw_entry = nullptr;
  if (git_tree_entry_bypath(&raw_entry, tag_tree, (prefix + "skills").c_str()) == 0) {
    Entry skills_entry(raw_entry);
    git_tree* raw_sub = nullptr;
    if (git_tree_entry_type(skills_entry.get()) == GIT_OBJECT_TREE &&
        git_tree_lookup(&raw_sub, repo.get(), git_tree_entry_id(skills_entry.get())) == 0) {
      Tree sub(raw_sub);
      WalkState state{repo.get(), &tagged};
      git_tree_walk(sub.get(), GIT_TREEWALK_PRE, collectBlob, &state);
    }
  }

  // Working-tree skills (as `port-check skills install` would ship them), skipping git-ignored files.
  std::map<std::string, FileSet> current;
  std::map<std::string, std::string> current_skill_md;
  for (const PackFile& f : skillFilesFromDir(root)) {
    int ignored = 0;
    git_ignore_path_is_ignored(&ignored, repo.get(), (prefix + f.path).c_str());
    if (ignored) continue;
    std::string in_skills = f.path.substr(std::string_view("skills/").size());
    std::size_t slash = in_skills.find('/');
    std::string skill = in_skills.substr(0, slash), file = in_skills.substr(slash + 1);
    current[skill][file] = blobHash(f.bytes);
    if (file == "SKILL.md") current_skill_md[skill] = f.bytes;
  }
  // A tagged folder without SKILL.md was never a skill; ignore it as skillFilesFromDir does.
  for (auto it = tagged.begin(); it != tagged.end();)
    it = it->second.count("SKILL.md") ? std::next(it) : tagged.erase(it);

  std::set<std::string> all;
  for (const auto& [k, v] : tagged) all.insert(k);
  for (const auto& [k, v] : current) all.insert(k);
  for (const std::string& skill : all) {
    auto t = tagged.find(skill), c = current.find(skill);
    if (t != tagged.end() && c != current.end() && t->second == c->second) continue;
    out.changed.push_back(skill);
    if (t == tagged.end() || c == current.end()) continue;  // added or removed: only the pack version must move
    auto old_md = blobText(repo.get(), tag_tree, prefix + "skills/" + skill + "/SKILL.md");
    auto old_v = old_md ? skillVersion(*old_md) : std::nullopt;
    auto new_v = skillVersion(current_skill_md[skill]);
    if (old_v && new_v && *new_v <= *old_v) {
      out.diagnostics.push_back(makeDiagnostic(
          "SKILL017", ws.relative(root / "skills" / skill / "SKILL.md"), versionLine(current_skill_md[skill]), 1,
          "skill '" + skill + "' changed since " + out.tag + " but its metadata.version is still " + new_v->str() +
              " (tagged " + old_v->str() + ")"));
    }
  }

  if (!out.changed.empty()) {
    auto plugin = readWholeFile(root / kPluginManifest);
    auto pack_v = plugin ? parseSemVer(pluginVersion(*plugin)) : std::nullopt;
    if (pack_v && *pack_v <= newest->second) {
      std::string list;
      for (const std::string& s : out.changed) list += (list.empty() ? "" : ", ") + s;
      out.diagnostics.push_back(makeDiagnostic(
          "SKILL018", ws.relative(root / kPluginManifest), 1, 1,
          "skills changed since " + out.tag + " (" + list + ") but the pack version is still " + pack_v->str()));
    }
  }
  out.ran = true;
  out.detail = "compared with " + out.tag + ": " + std::to_string(out.changed.size()) + " skill(s) changed";
  return out;
}

}  // namespace portcheck
