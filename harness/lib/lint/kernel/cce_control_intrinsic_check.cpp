#include "lint/kernel/cce_control_intrinsic_check.h"

#include <algorithm>
#include <array>

namespace portcheck {

using namespace kernel;

namespace {

// Mask and cross-core (FFTS) control the auto compiler does not manage. pto-isa's own auto kernels still call
// them (demos/auto_mode/baseline/add set_vector_mask; kernels/automode/a2a3/flash_atten FFTS sync), so this is
// a warning: the code is fragile, not necessarily wrong.
constexpr std::array<std::string_view, 12> kControl = {
    "set_mask_norm",   "set_mask_count",      "set_vector_mask", "set_ffts_base_addr",
    "ffts_cross_core_sync", "wait_flag_dev",  "set_atomic_add",  "set_atomic_none",
    "set_atomic_max",  "set_atomic_min",      "set_ctrl",        "set_flag_dev"};

}  // namespace

void CceControlIntrinsicCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.object.empty() || !c.reach.inAutoMode()) continue;
    if (std::find(kControl.begin(), kControl.end(), c.name) == kControl.end()) continue;
    if (isLibraryFunction(m, c.function)) continue;
    out.push_back(at(ctx, c.pos, c.name + "(...) is manual " +
                                     std::string(c.name.find("ffts") != std::string::npos || c.name.ends_with("_dev")
                                                     ? "cross-core synchronisation"
                                                     : "hardware control") +
                                     " in AUTO-mode code; the compiler neither inserts nor checks it"));
  }
}

}  // namespace portcheck
