#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using R = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

extern "C" __global__ AICORE void row_softmax(__gm__ float* y, __gm__ float* x) {
  G xg(x + get_block_idx() * 16 * 64), yg(y + get_block_idx() * 16 * 64);
  V in, tmp, out;
  R rowMax, rowSum;
  TLOAD(in, xg);
  TROWMAX(rowMax, in, tmp);
  TROWEXPANDSUB(out, in, rowMax);
  TEXP(out, out);
  TROWSUM(rowSum, out, tmp);
  TROWEXPANDDIV(out, out, rowSum);
  TSTORE(yg, out);
}
