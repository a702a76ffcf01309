// AUTO003: the same kernel without manual ordering.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

AICORE void add_one(__gm__ float* y, __gm__ float* x) {
  G xg(x), yg(y);
  V a;
  TLOAD(a, xg);
  TADDS(a, a, 1.0f);
  TSTORE(yg, a);
}
