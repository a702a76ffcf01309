// AUTO009: tiles passed by value, copied, assigned and captured by copy.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;

AICORE void scale(V t, float s) {  // expect: AUTO009
  TMULS(t, t, s);
}

template <typename TileData>
AICORE void shift(TileData t) {  // expect: AUTO009
  TADDS(t, t, 1.0f);
}

AICORE void copies(V& a) {
  V b = a;  // expect: AUTO009
  V c;
  c = a;  // expect: AUTO009
  auto run = [=]() { TEXP(c, c); };  // expect: AUTO009
  run();
}
