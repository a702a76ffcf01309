// AUTO008: the loaded value is overwritten before it is read.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

AICORE void exp_into(__gm__ float* y, V& src) {
  G yg(y);
  V dst;
  TLOAD(dst, yg);  // expect: AUTO008
  TEXP(dst, src);
  TSTORE(yg, dst);
}
