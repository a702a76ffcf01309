// AUTO010: cross-core FIFO instructions in an AUTO-mode kernel.
#include <pto/pto-inst.hpp>
using namespace pto;

using Acc = TileAcc<float, 16, 16>;
using V = Tile<TileType::Vec, float, 16, 16>;

template <typename Pipe>
AICORE void hand_over(Pipe& pipe, Acc& acc, V& v) {
#if defined(__DAV_CUBE__)
  TPUSH(acc, pipe);  // expect: AUTO010
#endif
#if defined(__DAV_VEC__)
  TPOP(v, pipe);  // expect: AUTO010
#endif
}
