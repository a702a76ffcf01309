// AUTO001: dual-mode kernel; the manual-mode binding is guarded out of AUTO mode.
#include <pto/pto-inst.hpp>
using namespace pto;

using RowTile = Tile<TileType::Vec, float, 8, 128>;
using RowGlobal = GlobalTensor<float, Shape<1, 1, 1, 8, 128>, Stride<1, 1, 1, 128, 1>>;

AICORE void scale_rows(__gm__ float* out, __gm__ float* in) {
  RowTile src;
  RowTile dst;
#ifndef __PTO_AUTO__
  TASSIGN(src, 0x0);
  TASSIGN(dst, 0x1000);
#endif
  RowGlobal inG(in);
  RowGlobal outG(out);
  TLOAD(src, inG);
  TMULS(dst, src, 0.5f);
  TSTORE(outG, dst);
}
