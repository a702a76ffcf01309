// ISA002: the canonical cube dataflow GM -> Mat -> Left/Right -> Acc -> GM, and vector work on Vec tiles.
#include <pto/pto-inst.hpp>
using namespace pto;

using MA = Tile<TileType::Mat, half, 16, 64, BLayout::ColMajor, 16, 64, SLayout::RowMajor>;
using MB = Tile<TileType::Mat, half, 64, 16, BLayout::RowMajor, 64, 16, SLayout::ColMajor>;
using A = TileLeft<half, 16, 64>;
using B = TileRight<half, 64, 16>;
using C = TileAcc<float, 16, 16>;
using GA = GlobalTensor<half, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;
using GB = GlobalTensor<half, Shape<1, 1, 1, 64, 16>, Stride<1, 1, 1, 16, 1>>;
using GC = GlobalTensor<float, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>>;

AICORE void gemm_tile(__gm__ float* out, __gm__ half* x, __gm__ half* w) {
  GA xg(x);
  GB wg(w);
  GC og(out);
  MA xm;
  MB wm;
  A a;
  B b;
  C c;
  TLOAD(xm, xg);
  TLOAD(wm, wg);
  TMOV(a, xm);
  TMOV(b, wm);
  TMATMUL(c, a, b);
  TSTORE(og, c);
}
