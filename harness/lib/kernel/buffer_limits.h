#pragma once
// Physical on-chip buffer sizes a hand-written PTO-ISA kernel sees, per platform and tile location.
// Source: pto-isa include/pto/common/buffer_limits.hpp:26-199 (same numbers in docs/isa/TASSIGN.md:53-63 and
// include/pto/cpu/NPUMemoryModel.hpp:67-86); shared reference pto-isa-and-auto-mode.md §5.3.
// These differ from core/platform.h, which holds the lower caps the PyPTO compiler enforces for PyPTO
// programs (a2a3 Vec 184 KiB of the 192 KiB UB, pto-isa#170).
#include <cstdint>

#include "core/platform.h"
#include "kernel/tile_type.h"

namespace portcheck::kernel {

// Capacity in bytes of the buffer a tile location maps to; 0 = no such buffer on the platform.
std::int64_t bufferCapacityBytes(Platform platform, Loc loc);

}  // namespace portcheck::kernel
