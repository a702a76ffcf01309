// AUTO008: loaded tiles are read; a load in one branch and an overwrite in the other are separate paths.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

AICORE void accumulate(__gm__ float* y, __gm__ float* x, V& src, bool fresh) {
  G xg(x), yg(y);
  V acc;
  if (fresh) {
    TLOAD(acc, xg);
  } else {
    TEXP(acc, src);
  }
  V in;
  TLOAD(in, xg);
  TADD(acc, acc, in);
  TSTORE(yg, acc);
}
