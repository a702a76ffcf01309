#pragma once
// Checks on C++ incore kernels (AUTO and ISA families). One class per rule, registered in kernelChecks();
// each reads the kernel model (kernel/kernel_model.h) and appends diagnostics.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/platform.h"
#include "core/source_file.h"
#include "kernel/kernel_model.h"
#include "rules/catalogue.h"

namespace portcheck {

struct KernelContext {
  const SourceFile& file;
  const kernel::KernelModel& model;
  Platform platform = Platform::A2A3;
};

// Which kernels a check reads (kernel/kernel_class.h). AUTO kernels get every check; manual-mode PTO-ISA kernels
// only those that hold for any PTO-ISA code (instruction legality, operand counts, dtypes, alignment, one tile's
// size, the a2a3 core split); C++ that is no PTO-ISA code gets none.
enum class KernelScope {
  AutoKernels,    // what AUTO mode requires, and the porting method's rules for AUTO kernels
  PtoIsaKernels,  // PTO-ISA facts, whatever the build mode
};

class KernelCheck {
 public:
  virtual ~KernelCheck() = default;
  virtual std::string_view id() const = 0;
  virtual KernelScope scope() const { return KernelScope::AutoKernels; }
  virtual void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const = 0;

 protected:
  Diagnostic at(const KernelContext& ctx, const kernel::Position& p, std::string message, std::string hint = {}) const {
    return makeDiagnostic(id(), ctx.file.path, p.line, p.column, std::move(message), std::move(hint));
  }
};

// Every kernel check, in ID order.
const std::vector<std::unique_ptr<KernelCheck>>& kernelChecks();

// Library code (tile functions, *_IMPL bodies) follows the library rules, not the kernel rules.
inline bool isLibraryFunction(const kernel::KernelModel& m, int function) {
  const kernel::Function* f = m.functionOf(function);
  return f && (f->tile_function || f->name.ends_with("_IMPL"));
}

// A PTO instruction called in bytes [begin, end) of `function` (an if's branches, a loop body).
inline bool hasPtoCall(const kernel::KernelModel& m, std::uint32_t begin, std::uint32_t end, int function) {
  for (const kernel::Call& c : m.calls)
    if (c.instruction && c.function == function && c.pos.byte >= begin && c.pos.byte < end) return true;
  return false;
}

}  // namespace portcheck
