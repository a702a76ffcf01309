// ISA006: single tiles larger than their buffer on a2a3.
#include <pto/pto-inst.hpp>
using namespace pto;

constexpr int kRows = 256;

AICORE void too_big() {
  Tile<TileType::Vec, float, kRows, 256> ub;  // expect: ISA006
  TileAcc<float, 256, 256> acc;  // expect: ISA006
}
