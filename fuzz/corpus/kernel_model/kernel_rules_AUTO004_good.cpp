// AUTO004: PTO instructions only; a user helper named like an intrinsic is not an intrinsic.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 1, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>>;

template <typename T>
AICORE void vadd(T& dst, T& a, T& b) {
  TADD(dst, a, b);
}

AICORE void copy_and_add(__gm__ float* y, __gm__ float* x) {
  G xg(x), yg(y);
  V a, b;
  TLOAD(a, xg);
  vadd(b, a, a);
  TSTORE(yg, b);
}
