// AUTO013: destination and full-size source share one tile type.
#include <pto/pto-inst.hpp>
using namespace pto;

using Scores = Tile<TileType::Vec, float, 32, 128>;
using RowSum = Tile<TileType::Vec, float, 32, 1, BLayout::ColMajor>;

AICORE void normalise(Scores& out, Scores& in, RowSum& sum) {
  TROWEXPANDDIV(out, in, sum);
  TROWEXPANDMUL(out, sum, in);
}
