#include "doctor/doctor_checks.h"

#include "core/json_fields.h"
#include "doctor/nanobind_check.h"
#include "doctor/pypi_lookalikes.h"
#include "toolchain/ptoas_version.h"

namespace portcheck::doctor {

std::string_view toString(Level level) {
  switch (level) {
    case Level::Passes: return "passes";
    case Level::Kernels: return "kernels";
    case Level::Simulator: return "simulator";
  }
  return "passes";
}

std::optional<Level> parseLevel(std::string_view text) {
  if (text == "passes") return Level::Passes;
  if (text == "kernels") return Level::Kernels;
  if (text == "simulator") return Level::Simulator;
  return std::nullopt;
}

std::string_view toString(CheckState state) {
  switch (state) {
    case CheckState::Ok: return "ok";
    case CheckState::Warning: return "warning";
    case CheckState::Missing: return "missing";
    case CheckState::Skipped: return "skipped";
  }
  return "missing";
}

namespace {

using nlohmann::json;

// A fact of the Python probe: {"ok": bool, "error": ..., ...}; an empty object when the probe did not run.
const json& fact(const ToolchainFacts& f, const char* key) {
  static const json kNone = json::object();
  if (!f.probe.is_object()) return kNone;
  auto it = f.probe.find(key);
  return it != f.probe.end() && it->is_object() ? *it : kNone;
}

bool factOk(const json& j) { return j.value("ok", false); }

struct Builder {
  const ToolchainFacts& f;
  std::vector<Check> checks;
  std::string python;  // the interpreter as the user named it, for fix commands

  void add(std::string id, Level level, std::string title, CheckState state, std::string found, std::string fix = {}) {
    if (state == CheckState::Ok) fix.clear();
    checks.push_back({std::move(id), level, std::move(title), state, std::move(found), std::move(fix)});
  }

  bool probeRan() const { return f.probe.is_object() && !f.probe.contains("internal_error"); }
  std::string notProbed() const {
    if (f.probe_interrupted) return "not checked: the Python probe was interrupted";
    return "not checked: the Python probe did not run (" +
           (f.probe_error.empty() ? std::string("see the interpreter check") : f.probe_error) + ")";
  }

  // A Python module check: ok with its path/version, or missing with the import error.
  void module(const char* key, std::string id, Level level, std::string title, const std::string& fix) {
    if (!probeRan()) return add(std::move(id), level, std::move(title), CheckState::Skipped, notProbed(), fix);
    const json& j = fact(f, key);
    if (factOk(j)) {
      std::string found = jsonString(j, "version");
      std::string path = jsonString(j, "path");
      if (!path.empty()) found += (found.empty() ? "" : " ") + std::string("at ") + path;
      return add(std::move(id), level, std::move(title), CheckState::Ok, found.empty() ? "importable" : found);
    }
    add(std::move(id), level, std::move(title), CheckState::Missing, pythonErrorLine(jsonString(j, "error")), fix);
  }

  void passes() {
    const Toolchain& t = f.toolchain;
    if (!t.found) {
      add("passes.checkout", Level::Passes, "PyPTO checkout", CheckState::Missing, t.why_not,
          "put a checkout of hw-native-sys/pypto at ../pypto beside this workspace, or pass --pypto DIR "
          "(or set PYPTO_ROOT); `port-check setup --venv DIR` installs what PyPI offers and prints the build steps");
    } else {
      add("passes.checkout", Level::Passes, "PyPTO checkout", CheckState::Ok,
          "pypto " + t.revision + " at " + t.pypto_root.string() + " (from " + t.origin + ")");
    }
    if (f.probe.is_object() && f.probe.contains("python")) {
      add("passes.python", Level::Passes, "Python interpreter", CheckState::Ok,
          f.probe.value("executable", python) + " (Python " + f.probe.value("python", "?") + ")");
    } else if (!t.found) {
      // The probe runs the interpreter with the checkout on its path: without one it never ran.
      add("passes.python", Level::Passes, "Python interpreter", CheckState::Skipped,
          python + ": not checked: no PyPTO checkout to run it with (see above)", "find the PyPTO checkout first");
    } else if (f.probe_interrupted) {
      add("passes.python", Level::Passes, "Python interpreter", CheckState::Skipped,
          python + ": interrupted before it answered", "run port-check doctor again");
    } else {
      add("passes.python", Level::Passes, "Python interpreter", CheckState::Missing,
          python + ": " + (f.probe_error.empty() ? "did not run" : f.probe_error),
          "pass --python PATH (or set PYPTO_PYTHON) to an interpreter with torch, e.g. a virtual environment "
          "outside the workspace");
    }
    module("torch", "passes.torch", Level::Passes, "torch (PyPTO imports it)",
           python + " -m pip install 'torch>=2.3'");
    std::string build_fix =
        t.found ? "build PyPTO's native module as its README says (a CMake build of " + t.pypto_root.string() +
                      " writes python/pypto/pypto_core*.so)"
                : "find the PyPTO checkout first";
    if (probeRan() && !factOk(fact(f, "pypto"))) {
      std::string error = pythonErrorLine(jsonString(fact(f, "pypto"), "error"));
      if (error.find("torch") != std::string::npos) build_fix = "install torch first (above)";
      add("passes.import", Level::Passes, "PyPTO imports", CheckState::Missing, error, build_fix);
    } else {
      module("pypto", "passes.import", Level::Passes, "PyPTO imports", build_fix);
    }
    if (std::optional<Check> lookalike = pyptoLookalike(f, python)) {
      if (lookalike->id == checks.back().id) checks.back() = std::move(*lookalike);
      else checks.push_back(std::move(*lookalike));
    }
    checks.push_back(pyptoBindingsCheck(f, python));
  }

  void kernels() {
    std::optional<Check> lookalike = ptoasLookalike(f, python);
    if (lookalike && lookalike->id == "kernels.ptoas") return checks.push_back(std::move(*lookalike));
    ptoas();
    if (lookalike) checks.push_back(std::move(*lookalike));
  }

  void ptoas() {
    const Toolchain& t = f.toolchain;
    std::string pin = f.ptoas.pinned.empty() ? std::string() : " (PyPTO pins " + f.ptoas.pinned + ")";
    if (t.ptoas.empty()) {
      add("kernels.ptoas", Level::Kernels, "ptoas", CheckState::Missing,
          (t.ptoas_why_not.empty() ? std::string("not found") : t.ptoas_why_not) + pin,
          "install ptoas" + (f.ptoas.pinned.empty() ? std::string() : " " + f.ptoas.pinned) +
              " (hw-native-sys/PTOAS) and put it on PATH, or set PTOAS_ROOT to its folder; without it compiles "
              "stop at .pto kernels");
      return;
    }
    if (!f.ptoas.ran) {
      add("kernels.ptoas", Level::Kernels, "ptoas", CheckState::Missing,
          t.ptoas.string() + " does not run: " + f.ptoas.version_output,
          "reinstall ptoas or point PTOAS_ROOT at a working one (its shared libraries must be found)");
      return;
    }
    std::string found = "ptoas " + (f.ptoas.version.empty() ? f.ptoas.version_output : f.ptoas.version) + " at " +
                        t.ptoas.string() + " (from " + t.ptoas_origin + ")" + pin;
    if (ptoasVersionsDiffer(f.ptoas.version, f.ptoas.pinned)) {
      add("kernels.ptoas", Level::Kernels, "ptoas", CheckState::Warning,
          found + ": programs using ops newer than this ptoas are rejected by it, and kernels may differ from "
                  "upstream's",
          "install ptoas " + f.ptoas.pinned + " for faithful kernels; `port-check doctor --run` shows which "
                                               "kinds of kernel this one handles");
      return;
    }
    add("kernels.ptoas", Level::Kernels, "ptoas", CheckState::Ok, found);
  }

  void simulator() {
    std::string simpler_fix =
        "put hw-native-sys/simpler (the commit of <pypto>/runtime) at <pypto>/runtime or set SIMPLER_ROOT, and "
        "install it: " + python + " -m pip install --no-build-isolation -e <simpler>";
    if (std::optional<Check> lookalike = simplerLookalike(f, python)) checks.push_back(std::move(*lookalike));
    else module("simpler_setup", "simulator.simpler", Level::Simulator, "simpler (the runtime)", simpler_fix);
    module("task_interface", "simulator.native", Level::Simulator, "simpler's native module (_task_interface)",
           "build it: " + python + " -m pip install --no-build-isolation -e <simpler>");
    module("cloudpickle", "simulator.cloudpickle", Level::Simulator, "cloudpickle",
           python + " -m pip install cloudpickle");
    torchVersion();
    ptoIsa();
    kernelCompiler();
  }

  void torchVersion() {
    std::string fix = python + " -m pip install 'torch>=2.3'";
    if (!probeRan()) return add("simulator.torch", Level::Simulator, "torch >= 2.3", CheckState::Skipped, notProbed(), fix);
    const json& j = fact(f, "torch");
    if (!factOk(j)) {
      return add("simulator.torch", Level::Simulator, "torch >= 2.3", CheckState::Missing,
                 pythonErrorLine(jsonString(j, "error")), fix);
    }
    if (!j.value("uint16", false)) {
      return add("simulator.torch", Level::Simulator, "torch >= 2.3", CheckState::Missing,
                 "torch " + jsonString(j, "version") + " has no torch.uint16 / torch.uint32, which the runtime maps",
                 fix);
    }
    add("simulator.torch", Level::Simulator, "torch >= 2.3", CheckState::Ok, "torch " + jsonString(j, "version"));
  }

  void ptoIsa() {
    const char* title = "pto-isa headers at the runtime's pin";
    if (!probeRan()) return add("simulator.pto_isa", Level::Simulator, title, CheckState::Skipped, notProbed());
    const json& j = fact(f, "pto_isa");
    std::string pin = jsonString(j, "pin");
    std::string checkout = jsonString(j, "checkout");
    std::string fix = pin.empty() ? "install simpler first (above)"
                                  : "check out hw-native-sys/pto-isa at " + pin + " into " + checkout +
                                        " (clean; the runtime clones it there itself when it can reach GitHub)";
    if (factOk(j)) {
      return add("simulator.pto_isa", Level::Simulator, title, CheckState::Ok, pin.substr(0, 12) + " at " + checkout);
    }
    std::string head = jsonString(j, "head");
    std::string found = jsonString(j, "error");
    if (found.empty()) {
      found = head.empty() ? checkout + " is not a git checkout"
                           : checkout + " is at " + head.substr(0, 12) + ", the pin is " + pin.substr(0, 12);
      if (!head.empty() && head == pin && !j.value("clean", true)) found = checkout + " has local changes";
    }
    add("simulator.pto_isa", Level::Simulator, title, CheckState::Missing, found, fix);
  }

  void kernelCompiler() {
    const KernelCompilerFacts& k = f.kernel_compiler;
    const std::string any_fix =
        "install GCC >= 14 as g++-15, or put clang++ >= 17 on PATH under the name g++-15 (what simpler's CI does "
        "where that compiler is missing) with the BF16 pieces of docs/doctor.md";
    if (k.path.empty()) {
      add("simulator.kernel_compiler", Level::Simulator, "kernel compiler (g++-15, C++23)", CheckState::Missing,
          "no g++-15 on PATH: the simulator builds every kernel with it", any_fix);
    } else {
      add("simulator.kernel_compiler", Level::Simulator, "kernel compiler (g++-15, C++23)", CheckState::Ok,
          k.path.string() + ": " + k.version_line);
    }
    if (!k.probed) {
      std::string why = k.path.empty() ? "no kernel compiler" : "no pto-isa headers";
      add("simulator.cpu_headers", Level::Simulator, "pto-isa CPU headers compile", CheckState::Skipped,
          "not checked: " + why, "fix the checks above");
      add("simulator.bf16", Level::Simulator, "BF16 in simulated kernels", CheckState::Skipped, "not checked: " + why,
          "fix the checks above");
      return;
    }
    if (!k.headers_ok) {
      add("simulator.cpu_headers", Level::Simulator, "pto-isa CPU headers compile", CheckState::Missing,
          k.headers_error,
          "GCC 12 and older reject the pto-isa CPU headers (static_assert(false) in a template, P2593): " + any_fix);
      add("simulator.bf16", Level::Simulator, "BF16 in simulated kernels", CheckState::Skipped,
          "not checked: the headers do not compile", "fix the check above");
      return;
    }
    add("simulator.cpu_headers", Level::Simulator, "pto-isa CPU headers compile", CheckState::Ok,
        "pto/pto-inst.hpp with -std=c++23 -D__CPU_SIM");
    if (!k.bf16_type_real) {
      return add("simulator.bf16", Level::Simulator, "BF16 in simulated kernels", CheckState::Missing,
                 "bfloat16_t is IEEE half (_Float16): the compiler has no <stdfloat> std::bfloat16_t, so pto-isa "
                 "falls back and every BF16 value a kernel reads or writes is wrong",
                 "use GCC >= 14; with clang over libstdc++ 12, give g++-15 a <stdfloat> declaring "
                 "`namespace std { using bfloat16_t = __bf16; }` on its include path, -D__STDCPP_BFLOAT16_T__=1, and "
                 "clang's libclang_rt.builtins (docs/doctor.md)");
    }
    if (!k.bf16_runs) {
      return add("simulator.bf16", Level::Simulator, "BF16 in simulated kernels", CheckState::Missing, k.bf16_error,
                 "link clang's builtins runtime (libclang_rt.builtins-<arch>.a, for __truncsfbf2, which libgcc 12 "
                 "lacks) into what g++-15 builds (docs/doctor.md)");
    }
    add("simulator.bf16", Level::Simulator, "BF16 in simulated kernels", CheckState::Ok,
        "std::bfloat16_t; FP32 -> BF16 -> FP32 gives the right bits");
  }
};

}  // namespace

std::vector<Check> judge(const ToolchainFacts& facts) {
  Builder b{facts, {}, facts.toolchain.python};
  b.passes();
  b.kernels();
  b.simulator();
  return std::move(b.checks);
}

std::optional<Level> reachedLevel(const std::vector<Check>& checks) {
  std::optional<Level> reached;
  for (Level level : {Level::Passes, Level::Kernels, Level::Simulator}) {
    for (const Check& c : checks)
      if (c.level == level && (c.state == CheckState::Missing || c.state == CheckState::Skipped)) return reached;
    reached = level;
  }
  return reached;
}

}  // namespace portcheck::doctor
