// AUTO015: moving the accumulator straight into UB on a2a3.
#include <pto/pto-inst.hpp>
using namespace pto;

using C = TileAcc<float, 16, 16>;
using V = Tile<TileType::Vec, float, 16, 16>;

AICORE void epilogue(C& c, V& v) {
  TMOV(v, c);  // expect: AUTO015
}
