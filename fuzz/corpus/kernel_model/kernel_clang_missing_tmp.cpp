#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using R = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor>;

AICORE void row_total(R& sum, V& x) {
  TROWSUM(sum, x);
}
