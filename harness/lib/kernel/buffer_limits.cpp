#include "kernel/buffer_limits.h"

namespace portcheck::kernel {

std::int64_t bufferCapacityBytes(Platform p, Loc loc) {
  const bool a5 = p == Platform::A5;
  constexpr std::int64_t KiB = 1024;
  switch (loc) {
    case Loc::Vec: return (a5 ? 256 : 192) * KiB;      // UB
    case Loc::Mat: return 512 * KiB;                   // L1
    case Loc::Left: return 64 * KiB;                   // L0A
    case Loc::Right: return 64 * KiB;                  // L0B
    case Loc::Acc: return (a5 ? 256 : 128) * KiB;      // L0C
    case Loc::Bias: return (a5 ? 4 : 1) * KiB;         // bias table
    case Loc::Scaling: return (a5 ? 4 : 2) * KiB;      // fixpipe buffer
    case Loc::ScaleLeft: case Loc::ScaleRight: return a5 ? 4 * KiB : 0;
    default: return 0;
  }
}

}  // namespace portcheck::kernel
