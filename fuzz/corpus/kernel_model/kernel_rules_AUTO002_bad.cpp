// AUTO002: raw pipe flags left in an AUTO-mode kernel.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, half, 16, 128>;
using G = GlobalTensor<half, Shape<1, 1, 1, 16, 128>, Stride<1, 1, 1, 128, 1>>;

AICORE void relu_block(__gm__ half* y, __gm__ half* x) {
  G xg(x), yg(y);
  V a, b;
  TLOAD(a, xg);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);  // expect: AUTO002
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);  // expect: AUTO002
  TRELU(b, a);
  pipe_barrier(PIPE_ALL);  // expect: AUTO002
  TSTORE(yg, b);
}
