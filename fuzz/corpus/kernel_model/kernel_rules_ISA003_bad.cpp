// ISA003: a row reduction without its tmp tile and an add with a stray operand.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using R = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor>;

AICORE void row_stats(R& sum, V& x, V& y) {
  TROWSUM(sum, x);  // expect: ISA003
  TADD(y, x, x, y);  // expect: ISA003
}
