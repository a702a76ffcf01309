#include "compiler/compile_cache.h"

#include "core/atomic_file.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "compiler/content_hash.h"
#include "core/cache_json.h"
#include "core/file_stamp.h"
#include "store/tiered_entry.h"
#include "store/workspace_paths.h"
#include "workspace/workspace.h"

namespace portcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kCacheSchema = 1;

// Environment variables PyPTO reads while compiling (pypto-compiler-interface.md §7), and the
// caller's PYTHONPATH (which golden/ harness and which helper modules a program file imports).
constexpr const char* kCompileEnvironment[] = {
    "PYTHONPATH", "PTOAS_ROOT", "PYPTO_LOG_LEVEL", "PYPTO_VERIFY_LEVEL", "PYPTO_WARNING_LEVEL", "PYPTO_EMIT_PTO_LOC",
    "PTO_BACKTRACE", "PYPTO_COMPILE_PROFILING", "PYPTO_EMIT_DEBUG_RUNNER"};

std::string stamp(const fs::path& p) { return fileStamp(p).value_or("-"); }

// Every file under `root` (skipping build output, caches and VCS data), relative and sorted.
std::vector<fs::path> sourceFiles(const fs::path& root) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (isSkippedDirectory(name) || (!name.empty() && name[0] == '.')) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(fs::relative(it->path(), root, ec));
  }
  std::sort(files.begin(), files.end());
  return files;
}

fs::path entryPath(const fs::path& cache_root, const std::string& key) {
  return cache_root / "results" / key.substr(0, 2) / (key + ".json");
}

}  // namespace

std::string compileCacheKey(const CompileTarget& target, Platform platform, const DriverSettings& settings,
                            const CompileAnalysisOptions& analysis_options) {
  // Paths under the workspace enter as workspace-relative (store/workspace_paths.h): checkouts at other
  // paths share keys. A toolchain outside the workspace is identified by its paths and stamps: machines
  // share entries when they have the same install (one image), as with ccache's compiler check.
  const store::WorkspacePaths paths(settings.workspace_root);
  HashBuilder h;
  h.add("schema", std::to_string(kCacheSchema));
  h.add("adapter", adapterContentHash());
  h.add("pypto_root", paths.keyed(settings.toolchain.pypto_root));
  h.add("pypto_revision", settings.toolchain.revision);
  h.add("extension", paths.keyed(settings.toolchain.extension) + "@" + settings.toolchain.extension_stamp);
  h.add("python", paths.keyed(settings.toolchain.python));
  h.add("ptoas", paths.keyed(settings.toolchain.ptoas) + "@" + stamp(settings.toolchain.ptoas));
  h.add("platform", std::string(toString(platform)));
  std::ostringstream low;
  low << analysis_options.low_usage_percent;
  h.add("analysis.low_usage_percent", low.str());
  h.add("target.name", target.name);
  h.add("target.root", paths.keyed(target.source_root));
  h.add("target.display", target.source_root_display);
  h.add("target.display_file", target.display_file);
  h.add("cache_root", paths.keyed(settings.cache_root));  // output folder paths appear in diagnostics
  for (const char* var : kCompileEnvironment) {
    auto it = settings.environment.find(var);
    h.add(std::string("env.") + var,
          it == settings.environment.end() ? "<unset>" : "=" + paths.keyedSearchPath(it->second));
  }
  if (target.program_file) {
    h.add("program_file", paths.keyed(*target.program_file));
    h.add("program_file.hash", fileHash(*target.program_file).value_or("<unreadable>"));
  } else {
    for (const fs::path& rel : sourceFiles(target.source_root))
      h.add("src:" + rel.generic_string(), fileHash(target.source_root / rel).value_or("<unreadable>"));
  }
  return h.hex();
}

std::optional<CompileOutcome> loadCachedCompile(const fs::path& cache_root, const fs::path& workspace_root,
                                                const std::string& key) {
  // Corrupt or from an incompatible port-check: a miss, rewritten after the compile.
  std::optional<CacheEntry> e = store::readTieredEntry(cache_root, entryPath(cache_root, key), "compile", kCacheSchema,
                                                       key, store::WorkspacePaths(workspace_root));
  if (!e) return std::nullopt;
  try {
    const json& j = e->json;
    CompileOutcome o;
    o.diagnostics = std::move(e->diagnostics);
    o.sram = std::move(e->sram);
    o.succeeded = j.at("succeeded").get<bool>();
    o.status = j.at("status").get<std::string>();
    o.program = j.at("program").get<std::string>();
    o.ptoas = j.at("ptoas").get<std::string>();
    o.out_dir = j.at("out_dir").get<std::string>();
    o.compile_seconds = j.at("compile_seconds").get<double>();
    for (const json& d : j.value("dependencies", json::array()))
      o.dependencies.emplace_back(d.at(0).get<std::string>(), d.at(1).get<std::string>());
    return o;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<std::pair<std::string, std::string>> hashDependencies(const std::string& listed,
                                                                  const fs::path& tree_root) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream lines(listed);
  for (std::string rel; std::getline(lines, rel);) {
    if (rel.empty() || rel.front() == '/') continue;
    out.emplace_back(rel, fileHash(tree_root / rel).value_or("<unreadable>"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool dependenciesUnchanged(const CompileOutcome& outcome, const fs::path& tree_root) {
  for (const auto& [rel, hash] : outcome.dependencies)
    if (fileHash(tree_root / rel).value_or("<unreadable>") != hash) return false;
  return true;
}

bool prepareCacheRoot(const fs::path& cache_root, std::string& error) {
  std::error_code ec;
  fs::path ignore = cache_root / ".gitignore";
  if (fs::exists(ignore, ec)) return true;
  return writeFileAtomically(ignore, "# Created by port-check: everything here is a cache.\n*\n", error,
                             /*create_parents=*/true);
}

bool storeCachedCompile(const fs::path& cache_root, const fs::path& workspace_root, const std::string& key,
                        const CompileOutcome& o, std::string& error) {
  json j = cacheEntryJson(kCacheSchema, key, o.diagnostics, o.sram);
  j["succeeded"] = o.succeeded;
  j["status"] = o.status;
  j["program"] = o.program;
  j["ptoas"] = o.ptoas;
  j["out_dir"] = o.out_dir;
  j["compile_seconds"] = o.compile_seconds;
  json deps = json::array();
  for (const auto& [path, hash] : o.dependencies) deps.push_back({path, hash});
  j["dependencies"] = deps;
  return store::writeTieredEntry(cache_root, entryPath(cache_root, key), "compile", key, j.dump(1) + "\n",
                                 store::WorkspacePaths(workspace_root), error);
}

}  // namespace portcheck
