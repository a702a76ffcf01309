// AUTO005: PTO instructions set up what they need.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;

AICORE void softplus(V& y, V& x) {
  TEXP(y, x);
  TADDS(y, y, 1.0f);
  TLOG(y, y);
}
