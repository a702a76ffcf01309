#pragma once
// What kind of C++ file a kernel file is, from the source: the kernel rules fit only PTO-ISA code, and the AUTO
// rules only PTO-ISA code built in AUTO mode.
//
//   AUTO kernel     PTO-ISA code that tests __PTO_AUTO__ (AUTO-only or dual-mode), that its build compiles in
//                   AUTO mode (-D__PTO_AUTO__ or --cce-pto-auto-enable in compile_commands.json, the folder's
//                   CMakeLists.txt or port-check's --define: kernel/build_evidence.h), a port's kernel (under a
//                   pypto_src/ folder: the porting method writes AUTO-mode kernels, so a port declares its C++
//                   AUTO whatever it looks like), a file whose port-check suppression comments name AUTO rules
//                   (its author runs the AUTO rules on it), or PTO-ISA code without the manual-mode machinery.
//   manual kernel   PTO-ISA code that never tests __PTO_AUTO__, binds tiles with TASSIGN and orders the pipes by
//                   hand (set_flag/wait_flag/pipe_barrier, Event<>, TSYNC). A manual kernel needs both: without
//                   TASSIGN its tiles have no address, without the flags its pipes race. One of them alone is an
//                   AUTO kernel with a manual-mode leftover, which is what AUTO001/AUTO002 report.
//   not PTO-ISA     no pto/ include, no pto namespace, no PTO tile and no PTO instruction: a CCE or AscendC
//                   kernel, a generated CCE header (device code), host or infrastructure C++ (plain C++).
#include <optional>
#include <string>
#include <string_view>

#include "core/source_file.h"
#include "kernel/build_evidence.h"
#include "kernel/kernel_model.h"

namespace portcheck::kernel {

enum class KernelKind { Auto, Manual, NotPtoIsa };

struct KernelClass {
  KernelKind kind = KernelKind::Auto;
  std::string what;  // "AUTO-mode PTO-ISA kernel", "manual-mode PTO-ISA kernel", "CCE kernel code", ...
  std::string why;   // the evidence, e.g. "no pto:: tiles or PTO instructions"
  bool device_code = false;  // NotPtoIsa: CCE or AscendC kernel code (device qualifiers, AscendC), not plain C++
  Position binding;  // Manual: the first TASSIGN on a tile
  Position sync;     // Manual: the first hand-written pipe synchronisation
  std::optional<BuildMode> build;  // Auto: the build's evidence, when the build and not the source decided
};

// True when `path` (workspace-relative, '/'-separated) lies in a port's sources: a pypto_src/ folder.
bool inPortSources(std::string_view path);

// TASSIGN(x, addr) binding a tile (not a GlobalTensor or a GM pointer): the manual-mode placement of a tile.
bool bindsTile(const KernelModel& m, const Call& c);

// set_flag/wait_flag/pipe_barrier, TSYNC or PtoSetWaitFlag outside tile functions: intra-core pipe order by hand.
// (Inside tile functions synchronisation stays manual in AUTO mode as well, AUTO-R18.)
bool ordersPipesByHand(const KernelModel& m, const Call& c);

// `names_auto_rules`: the file's `// port-check: ignore[...]` comments name an AUTO rule; `build`: what the
// build says (kernel/build_evidence.h): a file its build compiles in AUTO mode is an AUTO kernel whatever its
// source looks like, and the class says which evidence decided.
KernelClass classifyKernel(const SourceFile& file, const KernelModel& model, bool names_auto_rules = false,
                           const std::optional<BuildMode>& build = std::nullopt);

// The class of a file that is provably not PTO-ISA from its words alone (no `pto`, no Tile type name, no PTO
// instruction name outside comments and literals: kernel/code_words.h), the same class classifyKernel gives
// it after a parse; nullopt when only the parse can tell. Lets a large vendored CCE header skip the C++ parse.
std::optional<KernelClass> classifyWithoutParse(const SourceFile& file);

}  // namespace portcheck::kernel
