// ISA008: TLOAD in, tile compute, TSTORE out; pointer arithmetic to place the GlobalTensor is fine.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 1, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>>;

AICORE void scale(__gm__ float* y, __gm__ float* x, int block) {
  G xg(x + block * 64), yg(y + block * 64);
  V t;
  TLOAD(t, xg);
  TMULS(t, t, 2.0f);
  TSTORE(yg, t);
}
