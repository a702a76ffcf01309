#include "doctor/setup_plan.h"

namespace portcheck::doctor {

namespace fs = std::filesystem;

namespace {

// Debian 12 (bookworm) names: LLVM/MLIR 19 to build PTOAS v0.26-0.27, clang 19 as the simulator's kernel
// compiler (with clang's builtins runtime for BF16 conversions), and what the builds themselves run.
const std::vector<std::string> kDebianPackages = {"llvm-19-dev", "libmlir-19-dev", "mlir-19-tools",
                                                  "clang-19",    "libclang-rt-19-dev", "cmake",
                                                  "ninja-build", "git",            "python3-venv"};

std::string quoted(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                              "-_./=:@+,%") == std::string::npos)
    return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

const std::vector<std::string>& pypiRequirements() {
  static const std::vector<std::string> kRequirements = {"torch>=2.3", "cloudpickle", "nanobind>=2,<3",
                                                         "scikit-build-core"};
  return kRequirements;
}

std::string shellLine(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& w : argv) line += (line.empty() ? "" : " ") + quoted(w);
  return line;
}

SetupPlan planSetup(const SetupInputs& in) {
  SetupPlan plan;
  const std::string py = (in.venv / "bin" / "python").string();
  if (!in.venv_exists) plan.commands.push_back({"create the virtual environment", {in.python, "-m", "venv", in.venv.string()}});
  std::vector<std::string> pip = {py, "-m", "pip", "install"};
  pip.insert(pip.end(), pypiRequirements().begin(), pypiRequirements().end());
  plan.commands.push_back({"install what PyPI offers", std::move(pip)});

  plan.debian_packages = kDebianPackages;
  if (in.apt && in.root) {
    std::vector<std::string> apt = {"apt-get", "install", "-y", "--no-install-recommends"};
    apt.insert(apt.end(), kDebianPackages.begin(), kDebianPackages.end());
    // Before the venv: python3-venv is among them.
    plan.commands.insert(plan.commands.begin(), {"install the Debian packages", std::move(apt)});
    plan.install_debian = true;
  }

  const std::string pypto = in.pypto ? in.pypto->string() : std::string("<pypto>");
  const std::string runtime = pypto + "/runtime";
  plan.remaining = {
      "PyPTO from your hw-native-sys/pypto checkout (" + pypto + "; the figures of projects/ came from e2d0f78), "
      "built with the environment's nanobind 2 and scikit-build-core:\n"
      "   " + shellLine({py, "-m", "pip", "install", "--no-build-isolation", "-e", pypto}),
      "simpler, the runtime, at pypto's pin (its runtime/ submodule), with its native module _task_interface:\n"
      "   " + shellLine({"git", "-C", pypto, "submodule", "update", "--init", "runtime"}) + "\n"
      "   " + shellLine({py, "-m", "pip", "install", "--no-build-isolation", "-e", runtime}),
      "pto-isa at simpler's pin, clean, where the runtime looks for it:\n"
      "   git clone <your hw-native-sys/pto-isa clone> " + runtime + "/build/pto-isa\n"
      "   git -C " + runtime + "/build/pto-isa checkout \"$(cat " + runtime + "/pto_isa.pin)\"",
      "ptoas from your hw-native-sys/PTOAS checkout at a version that builds against Debian's LLVM/MLIR 19 "
      "(v0.26-0.27, e.g. a56b18c3; PyPTO pins v0.57, which needs a patched LLVM 21), with the local fixes "
      "docs/doctor.md lists for mixed kernels:\n"
      "   cmake -G Ninja -S <PTOAS> -B <PTOAS>/build -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm "
      "-DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir\n"
      "   cmake --build <PTOAS>/build\n"
      "   export PTOAS_ROOT=<the folder holding the built ptoas>",
      "a kernel compiler named g++-15: GCC >= 14, or clang++-19 behind a g++-15 wrapper with the BF16 pieces of "
      "docs/doctor.md (\"The BF16 trap\")",
      "point port-check at them and check:\n"
      "   export PYPTO_ROOT=" + quoted(pypto) + " PYPTO_PYTHON=" + quoted(py) + "\n"
      "   port-check doctor --run",
  };
  return plan;
}

}  // namespace portcheck::doctor
