// platform: a5
// AUTO015: a5 has the Acc->Vec path.
#include <pto/pto-inst.hpp>
using namespace pto;

using C = TileAcc<float, 16, 16>;
using V = Tile<TileType::Vec, float, 16, 16>;

AICORE void epilogue(C& c, V& v) {
  TMOV(v, c);
}
