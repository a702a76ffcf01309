// AUTO003: constructs that compile but do nothing in AUTO mode.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

AICORE void add_one(__gm__ float* y, __gm__ float* x) {
  G xg(x), yg(y);
  V a;
  Event<Op::TLOAD, Op::TADDS> loaded;  // expect: AUTO003
  loaded = TLOAD(a, xg);
  TADDS(a, a, 1.0f, loaded);
  TSYNC<Op::TADDS>();  // expect: AUTO003
  TSTORE(yg, a);
}
