#include "doctor/pypi_lookalikes.h"

#include <algorithm>

#include "core/json_fields.h"

namespace portcheck::doctor {

namespace {

using nlohmann::json;

const json& object(const json& parent, const char* key) {
  static const json kNone = json::object();
  if (!parent.is_object()) return kNone;
  auto it = parent.find(key);
  return it != parent.end() && it->is_object() ? *it : kNone;
}

// The probe's view of one installed distribution ({"installed": bool, "version", "location", ...}).
const json& distribution(const ToolchainFacts& f, const char* name) {
  return object(object(f.probe, "distributions"), name);
}

bool listed(const json& j, const char* key, const std::string& value) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return false;
  return std::any_of(it->begin(), it->end(), [&](const json& v) { return v.is_string() && v == value; });
}

bool contains(std::string_view hay, std::string_view needle) { return hay.find(needle) != std::string_view::npos; }

// "PyPI pypto 0.2.0 at <site-packages>" from a distribution fact.
std::string describe(const char* name, const json& dist) {
  std::string s = std::string("`") + name + "` " + jsonString(dist, "version");
  std::string where = jsonString(dist, "location");
  return where.empty() ? s : s + " in " + where;
}

// An installed `pypto` distribution whose files are CANN's PyPTO: a frontend package and no language one.
bool isCannDistribution(const json& dist) {
  if (!dist.value("installed", false)) return false;
  return listed(dist, "subpackages", "frontend") && !listed(dist, "subpackages", "language");
}

Check make(std::string id, Level level, std::string title, CheckState state, std::string found, std::string fix) {
  return Check{std::move(id), level, std::move(title), state, std::move(found), std::move(fix)};
}

}  // namespace

std::optional<Check> pyptoLookalike(const ToolchainFacts& f, const std::string& python) {
  const json& layout = object(f.probe, "pypto_layout");
  const json& dist = distribution(f, "pypto");
  std::string pypto_fix = "uninstall it (`" + python + " -m pip uninstall pypto`): PyPI has no hw-native-sys PyPTO; "
                          "point PYPTO_ROOT (or --pypto) at a checkout of hw-native-sys/pypto and build its native "
                          "module from source (`port-check setup --venv DIR` prints the steps)";
  const bool imported_cann = layout.value("found", false) && layout.value("frontend", false) &&
                             !layout.value("language", false) && !layout.value("ir", false);
  if (imported_cann) {
    std::string version = dist.value("installed", false) ? " " + jsonString(dist, "version") : std::string();
    return make("passes.import", Level::Passes, "PyPTO imports", CheckState::Missing,
                "`import pypto` gives CANN's PyPTO (PyPI pypto" + version + ") at " + jsonString(layout, "path") +
                    ": a different project with the same import name (pypto.frontend.jit; no pypto.language, no "
                    "pypto.ir), so no PyPTO v3 program compiles with it",
                pypto_fix);
  }
  if (isCannDistribution(dist)) {
    return make("passes.pypi_pypto", Level::Passes, "no CANN PyPTO beside it", CheckState::Warning,
                "CANN's PyPTO is installed as " + describe("pypto", dist) +
                    ": it has the same import name and shadows hw-native-sys PyPTO wherever <pypto>/python is not "
                    "first on PYTHONPATH (your own scripts, pytest, pip's editable install)",
                pypto_fix);
  }
  return std::nullopt;
}

std::optional<Check> ptoasLookalike(const ToolchainFacts& f, const std::string& python) {
  const json& dist = distribution(f, "ptoas");
  const bool pypi = dist.value("installed", false) && dist.value("from_index", true);
  const std::string pypi_fix =
      "uninstall it (`" + python + " -m pip uninstall ptoas`) and build hw-native-sys/PTOAS from source (its "
      "v0.26-0.27 sources, e.g. a56b18c3, build against Debian's LLVM/MLIR 19), then set PTOAS_ROOT to the folder "
      "holding the built ptoas";
  const Toolchain& t = f.toolchain;
  const bool cannot_start = !t.ptoas.empty() && !f.ptoas.ran &&
                            contains(f.ptoas.version_output, "error while loading shared libraries") &&
                            contains(f.ptoas.version_output, "libMLIR");
  if (cannot_start) {
    std::string found = t.ptoas.string() + " cannot start: " + f.ptoas.version_output;
    found += pypi ? "; it is PyPI's ptoas wheel (" + describe("ptoas", dist) +
                        "), whose bundled MLIR libraries were renamed by auditwheel and are not all shipped"
                  : "; its MLIR 19 shared libraries are not found";
    std::string fix = pypi ? pypi_fix
                           : "install the MLIR 19 libraries it was built against (Debian: libmlir-19), or rebuild "
                             "hw-native-sys/PTOAS from source and set PTOAS_ROOT to it";
    return make("kernels.ptoas", Level::Kernels, "ptoas", CheckState::Missing, found, fix);
  }
  if (pypi) {
    return make("kernels.pypi_ptoas", Level::Kernels, "no PyPI ptoas wheel", CheckState::Warning,
                "PyPI's ptoas is installed as " + describe("ptoas", dist) +
                    ": its binary cannot start (libMLIRMlirOptMain.so.19.1 and most of its MLIR libraries are not "
                    "shipped); a PATH reaching its `ptoas` first makes every compile fail",
                pypi_fix);
  }
  return std::nullopt;
}

std::optional<Check> simplerLookalike(const ToolchainFacts& f, const std::string& python) {
  const json& dist = distribution(f, "simpler");
  // hw-native-sys/simpler is installed from its checkout (pip records the folder); the placeholder from PyPI.
  if (!dist.value("installed", false) || !dist.value("from_index", true) || listed(dist, "top_level", "simpler_setup"))
    return std::nullopt;
  if (object(f.probe, "simpler_setup").value("ok", false)) return std::nullopt;
  const std::string runtime =
      f.toolchain.found ? (f.toolchain.pypto_root / "runtime").string() : std::string("<pypto>/runtime");
  return make("simulator.simpler", Level::Simulator, "simpler (the runtime)", CheckState::Missing,
              "PyPI's `simpler` is installed (" + describe("simpler", dist) +
                  "): a placeholder, not hw-native-sys/simpler: no simpler_setup, no native _task_interface",
              "uninstall it (`" + python + " -m pip uninstall simpler`), then build and install hw-native-sys/simpler "
              "from the checkout at " + runtime + " (pypto's runtime pin): `" + python +
                  " -m pip install --no-build-isolation -e " + runtime + "`");
}

}  // namespace portcheck::doctor
