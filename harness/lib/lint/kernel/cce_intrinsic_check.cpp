#include "lint/kernel/cce_intrinsic_check.h"

#include <algorithm>
#include <array>

namespace portcheck {

using namespace kernel;

namespace {

// CCE vector and cube intrinsics that do work a PTO instruction expresses (KDR:203-213).
constexpr std::array<std::string_view, 40> kVectorIntrinsics = {
    "vadd",  "vsub",   "vmul",   "vdiv",  "vmax",   "vmin",    "vexp",   "vln",   "vabs",  "vrec",
    "vsqrt", "vrsqrt", "vrelu",  "vadds", "vmuls",  "vmaxs",   "vmins",  "vconv", "vcmax", "vcmin",
    "vcadd", "vcgadd", "vcgmax", "vbrcb", "vmla",   "vand",    "vor",    "vnot",  "vsel",  "vcmp",
    "vcmpv", "vshl",   "vshr",   "vaxpy", "vcopy",  "vtranspose", "vector_dup", "vreduce", "mad", "mmad"};

bool isDataIntrinsic(std::string_view n) {
  if (n.starts_with("__cce_")) return true;  // __cce_get_tile_ptr, __cce_alias, ...
  if ((n.starts_with("copy_") || n.starts_with("load_")) && n.find("_to_") != std::string_view::npos) return true;
  if (n.starts_with("vconv_")) return true;
  return std::find(kVectorIntrinsics.begin(), kVectorIntrinsics.end(), n) != kVectorIntrinsics.end();
}

}  // namespace

void CceIntrinsicCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.object.empty() || c.instruction || !c.reach.inAutoMode() || !isDataIntrinsic(c.name)) continue;
    if (isLibraryFunction(m, c.function)) continue;
    bool user_defined = std::any_of(m.functions.begin(), m.functions.end(),
                                    [&](const Function& f) { return f.name == c.name; });
    if (user_defined) continue;
    out.push_back(at(ctx, c.pos,
                     "CCE intrinsic " + c.name + "(...) in kernel code: AUTO mode only analyses PTO instructions, "
                                                 "and raw pointers do not work with AUTO-mode tiles"));
  }
}

}  // namespace portcheck
