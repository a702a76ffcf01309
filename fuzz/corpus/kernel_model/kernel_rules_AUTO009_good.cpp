// AUTO009: tiles by reference, captured by reference, copied with TMOV.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;

AICORE void scale(V& t, float s) {
  TMULS(t, t, s);
}

template <typename TileData>
AICORE void shift(TileData& t) {
  TADDS(t, t, 1.0f);
}

AICORE void copies(V& a) {
  V b;
  TMOV(b, a);
  auto run = [&]() { TEXP(b, b); };
  run();
}
