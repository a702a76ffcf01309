#include "golden/run_cache.h"

#include "compiler/content_hash.h"
#include "core/atomic_file.h"
#include "core/cache_json.h"
#include "core/file_stamp.h"
#include "git/head_revision.h"
#include "golden/run_driver.h"
#include "output/json_model.h"
#include "process/subprocess.h"
#include "store/tiered_entry.h"
#include "store/workspace_paths.h"

namespace portcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kRunCacheSchema = 2;  // 2: contract runs (docs/contract.md)

// What the simulator reads besides the program: where the runtime and pto-isa come from, the compilers.
constexpr const char* kRunEnvironment[] = {"SIMPLER_ROOT", "PTO_ISA_ROOT", "CC", "CXX", "LD_LIBRARY_PATH"};

fs::path entryPath(const fs::path& cache_root, const std::string& key) {
  return cache_root / "runs" / (key.substr(0, 2)) / (key + ".json");
}

std::string headOf(const fs::path& dir) {
  if (dir.empty()) return "<none>";
  return readHeadFromGitFiles(dir).value_or("<unknown>");
}

template <typename T>
T field(const json& j, const char* name, T fallback) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) return fallback;
  return it->get<T>();
}

std::vector<std::pair<std::string, std::int64_t>> countsFromJson(const json& j, const char* name) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  auto it = j.find(name);
  if (it == j.end() || !it->is_array()) return out;
  for (const json& e : *it) out.emplace_back(e.at(0).get<std::string>(), e.at(1).get<std::int64_t>());
  return out;
}

std::optional<double> optionalNumber(const json& j, const char* name) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

GoldenOutput outputFromJson(const json& j) {
  GoldenOutput o;
  o.name = j.at("name").get<std::string>();
  o.verdict = j.at("verdict").get<std::string>();
  o.passed = j.at("passed").get<bool>();
  o.dtype = field<std::string>(j, "dtype", "");
  o.shape = field<std::vector<std::int64_t>>(j, "shape", {});
  o.expected_shape = field<std::vector<std::int64_t>>(j, "expected_shape", {});
  o.elements = field<std::int64_t>(j, "elements", 0);
  o.mismatches = field<std::int64_t>(j, "mismatches", 0);
  o.mismatch_share = field<double>(j, "mismatch_share", 0);
  o.max_abs_err = optionalNumber(j, "max_abs_err");
  o.max_rel_err = optionalNumber(j, "max_rel_err");
  o.worst_index = field<std::vector<std::int64_t>>(j, "worst_index", {});
  o.nan_actual = j.at("nan").at("actual").get<std::int64_t>();
  o.nan_expected = j.at("nan").at("expected").get<std::int64_t>();
  o.inf_actual = j.at("inf").at("actual").get<std::int64_t>();
  o.inf_expected = j.at("inf").at("expected").get<std::int64_t>();
  o.never_written = field<bool>(j, "never_written", false);
  o.rtol = field<double>(j, "rtol", 0);
  o.atol = field<double>(j, "atol", 0);
  o.tolerance_source = field<std::string>(j, "tolerance_source", "");
  o.case_id = field<std::string>(j, "case", "");
  o.comparator = field<std::string>(j, "comparator", "");
  o.pass_rate = optionalNumber(j, "pass_rate");
  o.close_share = optionalNumber(j, "close_share");
  o.max_steps = countsFromJson(j, "max_steps");
  o.steps = countsFromJson(j, "steps");
  o.mean_abs_err = optionalNumber(j, "mean_abs_err");
  o.mean_rel_err = optionalNumber(j, "mean_rel_err");
  o.cosine = optionalNumber(j, "cosine");
  o.ulp_histogram = countsFromJson(j, "ulp_histogram");
  return o;
}

// A passed contract run as stored (gaming findings make a run fail, so a stored one has none).
void contractFromJson(const json& j, GoldenRun& g) {
  auto it = j.find("contract");
  if (it == j.end() || it->is_null()) return;
  g.contract = true;
  g.contract_kind = field<std::string>(*it, "kind", "");
  g.seeds = field<std::vector<std::int64_t>>(*it, "seeds", {});
  for (const json& c : it->at("cases")) {
    GoldenCase gc;
    gc.id = c.at("id").get<std::string>();
    gc.category = field<std::string>(c, "category", "");
    gc.seed = field<std::int64_t>(c, "seed", 0);
    gc.passed = field<bool>(c, "passed", false);
    gc.status = field<std::string>(c, "status", "");
    gc.frozen = field<std::string>(c, "frozen", "");
    gc.seconds = field<double>(c, "seconds", 0);
    for (const json& o : c.at("outputs")) gc.outputs.push_back(outputFromJson(o));
    g.cases.push_back(std::move(gc));
  }
}

GoldenRun runFromJson(const json& j) {
  GoldenRun g;
  g.project = j.at("project").get<std::string>();
  g.platform = j.at("platform").get<std::string>();
  g.status = j.at("status").get<std::string>();
  g.detail = field<std::string>(j, "detail", "");
  g.seed = field<int>(j, "seed", 0);
  g.rtol = field<double>(j, "rtol", 0);
  g.atol = field<double>(j, "atol", 0);
  g.tolerance_source = field<std::string>(j, "tolerance_source", "");
  g.seconds = field<double>(j, "seconds", 0);
  g.out_dir = field<std::string>(j, "out_dir", "");
  for (const json& o : j.at("outputs")) g.outputs.push_back(outputFromJson(o));
  contractFromJson(j, g);
  return g;
}

}  // namespace

std::string runCacheKey(const std::string& compile_key, Platform platform, const DriverSettings& settings) {
  const store::WorkspacePaths paths(settings.workspace_root);
  std::map<std::string, std::string> env = runEnvironment(settings.environment, settings.toolchain);
  fs::path simpler = simplerRoot(settings.environment, settings.toolchain);
  HashBuilder h;
  h.add("schema", std::to_string(kRunCacheSchema));
  h.add("compile", compile_key);
  h.add("platform", std::string(toString(platform)) + "sim");
  h.add("seed", std::to_string(kRunSeed));
  std::optional<fs::path> cxx = findExecutable("g++-15", env);
  h.add("g++-15", cxx ? paths.keyed(*cxx) + "@" + fileStamp(*cxx).value_or("?") : "<none>");
  h.add("simpler", paths.keyed(simpler) + "@" + headOf(simpler));
  h.add("pto-isa", headOf(simpler.empty() ? fs::path() : simpler / "build" / "pto-isa"));
  for (const char* var : kRunEnvironment) {
    auto it = settings.environment.find(var);
    h.add(std::string("env.") + var,
          it == settings.environment.end() ? "<unset>" : "=" + paths.keyedSearchPath(it->second));
  }
  return h.hex();
}

std::optional<GoldenRun> loadCachedRun(const fs::path& cache_root, const fs::path& workspace_root,
                                       const std::string& key) {
  std::optional<CacheEntry> e = store::readTieredEntry(cache_root, entryPath(cache_root, key), "run", kRunCacheSchema,
                                                       key, store::WorkspacePaths(workspace_root));
  if (!e) return std::nullopt;
  try {
    GoldenRun g = runFromJson(e->json.at("run"));
    if (g.status != "passed") return std::nullopt;
    g.replayed = true;
    return g;
  } catch (const std::exception&) {
    return std::nullopt;  // a malformed entry is a miss
  }
}

bool storeCachedRun(const fs::path& cache_root, const fs::path& workspace_root, const std::string& key,
                    const GoldenRun& run, std::string& error) {
  if (run.status != "passed") return true;
  json entry = cacheEntryJson(kRunCacheSchema, key, {}, {});
  entry["run"] = goldenRunToJson(run);
  return store::writeTieredEntry(cache_root, entryPath(cache_root, key), "run", key, entry.dump(),
                                 store::WorkspacePaths(workspace_root), error);
}

}  // namespace portcheck
