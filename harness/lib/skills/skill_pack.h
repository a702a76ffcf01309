#pragma once
// The skill pack: skills/<name>/SKILL.md (+ references/), skills/CHANGELOG.md and the
// .claude-plugin/ manifests, read from a folder or from the copy built into the binary.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace portcheck {

// One file of a pack; `path` is relative to the pack root, '/'-separated ("skills/fusion/SKILL.md").
struct PackFile {
  std::string path;
  std::string bytes;
};

inline constexpr const char* kPluginManifest = ".claude-plugin/plugin.json";
inline constexpr const char* kMarketplaceManifest = ".claude-plugin/marketplace.json";
inline constexpr const char* kChangelog = "skills/CHANGELOG.md";

// True when `root` holds skills/ and .claude-plugin/plugin.json.
bool isSkillPackRoot(const std::filesystem::path& root);

// The files of every skill (folders under skills/ that hold a SKILL.md), sorted by path. Hidden
// files and build/cache folders are left out. Pack-level files (CHANGELOG, README) are not skills.
std::vector<PackFile> skillFilesFromDir(const std::filesystem::path& root);
// The same from the pack compiled into port-check.
std::vector<PackFile> skillFilesEmbedded();
// A pack-level file (e.g. kPluginManifest) of the built-in pack; nullopt when absent.
std::optional<std::string> embeddedPackFile(std::string_view path);

// The "version" of a plugin.json text; empty when it has none.
std::string pluginVersion(std::string_view plugin_json);
std::string pluginName(std::string_view plugin_json);

// Git blob id (SHA-1, as `git hash-object` prints it) of `bytes`: the content hash used by the
// install manifest and the release check.
std::string blobHash(std::string_view bytes);

// Reads a whole file; nullopt when it cannot be read.
std::optional<std::string> readWholeFile(const std::filesystem::path& p);

}  // namespace portcheck
