// AUTO002: the manual-mode flags sit behind #ifndef __PTO_AUTO__ (and in the #else of #ifdef).
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, half, 16, 128>;
using G = GlobalTensor<half, Shape<1, 1, 1, 16, 128>, Stride<1, 1, 1, 128, 1>>;

AICORE void relu_block(__gm__ half* y, __gm__ half* x) {
  G xg(x), yg(y);
  V a, b;
  TLOAD(a, xg);
#ifndef __PTO_AUTO__
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
#endif
  TRELU(b, a);
#if defined(__PTO_AUTO__)
  // the compiler orders the pipes
#else
  pipe_barrier(PIPE_ALL);
#endif
  TSTORE(yg, b);
}
