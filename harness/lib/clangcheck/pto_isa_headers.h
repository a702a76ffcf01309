#pragma once
// Finds the PTO-ISA headers the kernel compile check includes: --pto-isa DIR, else PTO_ISA_ROOT, else
// ../pto-isa beside the workspace, else the copy the PyPTO runtime keeps (<pypto>/runtime/build/pto-isa,
// see the shared reference pypto-compiler-interface.md §8).
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace portcheck::clangcheck {

struct PtoIsaHeaders {
  bool found = false;
  std::filesystem::path root;  // the checkout; headers under root/include
  std::string origin;          // "--pto-isa", "PTO_ISA_ROOT", "../pto-isa" or "pypto runtime"
  std::string why_not;         // when !found: every place looked at
  // The PyPTO runtime's copy (the pin the compiler was built with) when it exists and is not `root`: the
  // environment check (environment_faults.h) tells a header of another pin from a kernel error with it.
  std::optional<std::filesystem::path> pinned;
};

// True when `dir` holds include/pto/pto-inst.hpp.
bool isPtoIsaTree(const std::filesystem::path& dir);

PtoIsaHeaders locatePtoIsa(const std::filesystem::path& workspace_root, const std::optional<std::filesystem::path>& explicit_dir,
                           const std::optional<std::filesystem::path>& pypto_root,
                           const std::function<const char*(const char*)>& getenv_fn);

}  // namespace portcheck::clangcheck
