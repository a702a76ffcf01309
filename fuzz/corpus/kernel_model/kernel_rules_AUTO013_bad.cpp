// AUTO013: the full-size source of TROWEXPANDDIV has dynamic valid dims, the destination static ones.
#include <pto/pto-inst.hpp>
using namespace pto;

using Scores = Tile<TileType::Vec, float, 32, 128>;
using ScoresDyn = Tile<TileType::Vec, float, 32, 128, BLayout::RowMajor, -1, -1>;
using RowSum = Tile<TileType::Vec, float, 32, 1, BLayout::ColMajor>;

AICORE void normalise(Scores& out, ScoresDyn& in, RowSum& sum) {
  TROWEXPANDDIV(out, in, sum);  // expect: AUTO013
}
