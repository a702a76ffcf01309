#pragma once
// port-check setup: what the package registries offer toward a working toolchain, installed into a virtual
// environment the user names, and the exact remaining steps for what only the user's own checkouts can give
// (docs/doctor.md, "Setting up"). Pure: builds the plan; app/setup_command.cpp carries it out.
// Nothing here downloads or builds third-party sources: PyPI has no usable hw-native-sys PyPTO, ptoas or
// simpler (doctor's look-alike checks), so those stay steps for the user.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace portcheck::doctor {

struct SetupInputs {
  std::filesystem::path venv;                     // --venv DIR (absolute)
  std::string python = "python3";                 // the interpreter the environment is made from
  bool venv_exists = false;                       // DIR/bin/python is there already
  bool apt = false;                               // --apt: install the Debian packages
  bool root = false;                              // running as root (apt-get needs it)
  std::optional<std::filesystem::path> pypto;     // the PyPTO checkout when port-check finds one
};

struct SetupCommand {
  std::string what;                  // "create the virtual environment"
  std::vector<std::string> argv;
};

struct SetupPlan {
  std::vector<SetupCommand> commands;          // run in order; the first failure stops the rest
  std::vector<std::string> debian_packages;    // MLIR 19 / clang 19 and the build tools
  bool install_debian = false;                 // --apt as root: an apt-get command is in `commands`
  std::vector<std::string> remaining;          // numbered steps for the user, each with its exact commands
};

// PyPI requirements: torch >= 2.3 (torch.uint16), cloudpickle (simpler's worker), nanobind 2 (nanobind 3
// breaks PyPTO's bindings) and scikit-build-core (PyPTO's and simpler's build backend).
const std::vector<std::string>& pypiRequirements();

SetupPlan planSetup(const SetupInputs& inputs);

// The command as one shell line, each word quoted when it needs to be.
std::string shellLine(const std::vector<std::string>& argv);

}  // namespace portcheck::doctor
