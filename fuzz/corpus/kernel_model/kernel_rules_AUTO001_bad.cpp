// AUTO001: tiles bound with TASSIGN in AUTO-mode code; the GlobalTensor binding is legal.
#include <pto/pto-inst.hpp>
using namespace pto;

using RowTile = Tile<TileType::Vec, float, 8, 128>;
using RowGlobal = GlobalTensor<float, Shape<1, 1, 1, 8, 128>, Stride<1, 1, 1, 128, 1>>;

AICORE void scale_rows(__gm__ float* out, __gm__ float* in) {
  RowTile src;
  RowTile dst;
  TASSIGN(src, 0x0);  // expect: AUTO001
  TASSIGN(dst, 0x1000);  // expect: AUTO001
  RowGlobal inG;
  TASSIGN(inG, in);
  RowGlobal outG(out);
  TLOAD(src, inG);
  TMULS(dst, src, 0.5f);
  TSTORE(outG, dst);
}

template <typename TileT>
AICORE void bind_at(TileT& t, uint32_t offset) {
  TASSIGN(t, offset);  // expect: AUTO001
}
