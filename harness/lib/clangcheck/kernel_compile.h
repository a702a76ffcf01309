#pragma once
// The kernel compile check: each C++ kernel compiled with clang++-19 against the PTO-ISA headers for the CPU
// simulator (shared reference pto-isa-and-auto-mode.md §6.3), once per core the kernel targets, in parallel;
// clang's output becomes ISA009/ISA010 diagnostics in the kernel (clang_output.h).
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clangcheck/pto_isa_headers.h"
#include "core/diagnostic.h"
#include "core/report.h"
#include "core/source_file.h"
#include "kernel/build_evidence.h"
#include "workspace/config.h"
#include "workspace/workspace.h"

namespace portcheck::clangcheck {

struct KernelCompileOptions {
  std::optional<std::filesystem::path> pto_isa;  // --pto-isa DIR
  std::string clang = "clang++-19";              // --clang EXE
  bool enabled = true;                           // false: --no-kernel-compile
  std::vector<std::string> defines;              // --define/-D NAME[=VALUE]: the kernels' build defines them
  std::optional<std::filesystem::path> compile_commands;  // --compile-commands FILE
};

// What the kernels' build says (AUTO mode, include directories) for a workspace: --define, --compile-commands
// (else the workspace's compile_commands.json) and the CMakeLists.txt files (kernel/build_evidence.h).
std::shared_ptr<const kernel::BuildEvidence> kernelBuildEvidence(const std::filesystem::path& workspace_root,
                                                                 const KernelCompileOptions& options);

// How one kernel is compiled: one define set per variant (core), and ISA011 notices for the documented
// CPU-simulation false failures worked around. AUTO-mode kernels get __PTO_AUTO__, manual-mode kernels do not,
// and C++ that is no PTO-ISA code gets no variant (kernel/kernel_class.h; the lint pass's ISA014 says so).
// `build`: what the kernel's build says (its AUTO mode, include directories); `defines`: port-check's --define.
struct KernelPlan {
  std::vector<std::vector<std::string>> variants;
  std::vector<Diagnostic> notices;
  std::vector<std::string> include_dirs;  // the build's -I directories (compile_commands.json)
  bool block_idx_prelude = false;         // block_idx maps to get_block_idx() after the PTO-ISA headers
};
KernelPlan planKernel(const SourceFile& file, const kernel::BuildEvidence* build = nullptr,
                      const std::vector<std::string>& defines = {});

// What a variant adds to the documented command: include directories, a forced include (the block_idx prelude).
struct ClangExtras {
  std::vector<std::string> include_dirs;
  std::string forced_include;
};

// The clang command line (argv) for one variant.
std::vector<std::string> clangArguments(const std::string& clang, const std::filesystem::path& headers_root,
                                        const std::vector<std::string>& defines, const std::string& file,
                                        const ClangExtras& extras = {});

// `name` when it contains a '/' and exists, else its first match on `path_env` (':'-separated).
std::optional<std::string> findExecutable(const std::string& name, const char* path_env);

struct KernelCompileResult {
  std::vector<Diagnostic> diagnostics;
  StageStatus status;
};

// Compiles the .cpp/.cc/.cxx files among `files` (workspace-relative). With no headers or no clang it returns
// a skipped status and a TOOL003 diagnostic saying why; with no kernel files, an empty status name.
KernelCompileResult compileKernels(const Workspace& ws, const std::vector<std::string>& files,
                                   const KernelCompileOptions& options, const PtoIsaHeaders& headers,
                                   const std::function<const char*(const char*)>& getenv_fn, int jobs);

// The stage as `lint` and `check` run it: finds the headers (--pto-isa, PTO_ISA_ROOT, ../pto-isa, the PyPTO
// runtime's copy), compiles the kernels among report.run.files, applies the configuration and appends the
// diagnostics and the stage status to `report`.
void kernelCompileInto(Report& report, const Workspace& ws, const Config& config,
                       const std::optional<std::filesystem::path>& pypto_root, const KernelCompileOptions& options,
                       const std::function<const char*(const char*)>& getenv_fn, int jobs);

}  // namespace portcheck::clangcheck
