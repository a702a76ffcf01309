// AUTO010: cube and vector exchange data through GM.
#include <pto/pto-inst.hpp>
using namespace pto;

using Acc = TileAcc<float, 16, 16>;
using V = Tile<TileType::Vec, float, 16, 16>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>>;

AICORE void hand_over(__gm__ float* workspace, Acc& acc, V& v) {
  G ws(workspace);
#if defined(__DAV_CUBE__)
  TSTORE(ws, acc);
#endif
#if defined(__DAV_VEC__)
  TLOAD(v, ws);
#endif
}
