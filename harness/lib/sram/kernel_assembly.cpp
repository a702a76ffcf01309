// A region's estimate put together: the footprints of inline functions it calls, the split of a mixed
// kernel into _aic / _aiv with the cross-core pipe ring reserved on the receiving side, and the packing
// of each memory space (buffer_packer.h).
#include "sram/sram_estimator_internal.h"

#include <algorithm>

namespace portcheck::sram::detail {

namespace {

bool isCubeSpace(MemSpace s) {
  return s == MemSpace::Mat || s == MemSpace::Left || s == MemSpace::Right || s == MemSpace::Acc ||
         s == MemSpace::Bias;
}

}  // namespace

const dsl::Scope* RegionEstimator::scope() const {
  return region_.scope >= 0 ? &fn_.scopes[static_cast<std::size_t>(region_.scope)] : nullptr;
}

SpaceEstimate RegionEstimator::packSpace(MemSpace space, std::vector<Interval> ivs, std::int64_t reserved) {
  SpaceEstimate s;
  s.space = std::string(dsl::memSpaceName(space));
  const bool l0 = space == MemSpace::Left || space == MemSpace::Right || space == MemSpace::Acc;
  Packing p = pack(ivs, reserved, SpaceLimits{capacityBytes(platform_, dsl::memSpaceName(space)), l0});
  s.hwm = p.hwm;
  s.reserved = reserved;
  s.buffers = p.buffers;
  s.capacity = capacityBytes(platform_, s.space);
  std::stable_sort(ivs.begin(), ivs.end(), [](const Interval& a, const Interval& b) { return a.bytes > b.bytes; });
  s.tiles = std::move(ivs);
  return s;
}

// Each call of an inline function in the region holds the callee's footprint at the call.
void RegionEstimator::addInlinedCalls() {
  if (!inlined_) return;
  for (int c : fn_.calls) {
    const Expr& call = X(c);
    if (!inRegion(call.stmt) || call.callee_file < 0 || call.callee_function < 0) continue;
    const InlineFootprint* f = inlined_(call.callee_file, call.callee_function);
    if (!f) continue;
    int point = isNumberedCall(c) ? pointOf(c) : call.stmt * kSub;
    std::string name = "inlined " + std::string(file_.text(X(call.children.empty() ? c : call.children[0])));
    for (const auto& [space, bytes] : f->spaces)
      if (bytes > 0) addTile(name, bytes, space, point, point, call.loc.line, true);
    if (f->cube) has_cube_op_ = true;
  }
}

std::vector<KernelEstimate> RegionEstimator::assemble() {
  bool mixed = has_cube_op_ && has_vector_tile_;
  const dsl::Scope* sc = scope();
  bool split = sc && !sc->split_mode.empty();
  std::int64_t slots = sc && sc->cross_core_slots.isInt() ? sc->cross_core_slots.i : 2;
  // One pipe serves both directions: its slot fits the largest tile crossing either way. Each core
  // reserves the ring it receives into: the AIV in Vec for cube results, the AIC in Mat for vector
  // results (aic_initialize_pipe dir_mask, reserve_buffer).
  std::int64_t slot = 0;
  bool to_vector = false, to_cube = false;
  for (const Tile& t : tiles_)
    if (t.crossing || t.to_cube) {
      if (t.to_cube) slot = std::max(slot, alignUp(t.iv.bytes));
      if (t.crossing) slot = std::max(slot, alignUp(t.crossing_bytes));
      to_vector |= t.crossing;
      to_cube |= t.to_cube;
    }
  std::int64_t ring = to_vector ? slot * slots : 0;
  std::int64_t cube_ring = to_cube ? slot * slots : 0;

  int line = region_.stmt >= 0 ? fn_.stmts[static_cast<std::size_t>(region_.stmt)].loc.line : fn_.loc.line;
  auto make = [&](std::string name, std::string core) {
    KernelEstimate k;
    k.kernel = std::move(name);
    k.core = std::move(core);
    k.file = file_.path;
    k.line = line;
    k.unknown = unknown_;
    k.split = mixed;
    return k;
  };
  std::vector<KernelEstimate> out;
  if (!mixed) {
    out.push_back(make(region_.kernel_name, has_cube_op_ ? "AIC" : "AIV"));
    for (std::string_view sn : kMemorySpaces) {
      MemSpace ms = dsl::memSpaceFromName(sn);
      std::vector<Interval> ivs;
      for (const Tile& t : tiles_)
        if (t.space == ms) ivs.push_back(t.iv);
      if (!ivs.empty()) out.back().spaces.push_back(packSpace(ms, std::move(ivs), 0));
    }
    return out;
  }
  KernelEstimate aic = make(region_.kernel_name + "_aic", "AIC");
  KernelEstimate aiv = make(region_.kernel_name + "_aiv", "AIV");
  for (std::string_view sn : kMemorySpaces) {
    MemSpace ms = dsl::memSpaceFromName(sn);
    std::vector<Interval> ivs;
    for (const Tile& t : tiles_) {
      if (t.space != ms) continue;
      Interval iv = t.iv;
      if (ms == MemSpace::Vec && split) iv.bytes = (iv.bytes + 1) / 2;  // each AIV holds half
      ivs.push_back(iv);
    }
    if (ivs.empty() && !(ms == MemSpace::Vec && ring > 0) && !(ms == MemSpace::Mat && cube_ring > 0)) continue;
    if (isCubeSpace(ms)) {
      aic.spaces.push_back(packSpace(ms, std::move(ivs), ms == MemSpace::Mat ? cube_ring : 0));
      if (ms == MemSpace::Mat && cube_ring > 0) aic.spaces.back().ring_slot = slot;
    } else {
      aiv.spaces.push_back(packSpace(ms, std::move(ivs), ms == MemSpace::Vec ? ring : 0));
      if (ms == MemSpace::Vec && ring > 0) aiv.spaces.back().ring_slot = slot;
    }
  }
  out.push_back(std::move(aic));
  out.push_back(std::move(aiv));
  return out;
}

}  // namespace portcheck::sram::detail
