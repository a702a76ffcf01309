// ISA005: padded storage with the real extent as the valid shape; boxed layouts follow their fractal rules.
#include <pto/pto-inst.hpp>
using namespace pto;

constexpr int kCols = 8;
using Padded = Tile<TileType::Vec, float, 16, kCols, BLayout::RowMajor, 16, 6>;

AICORE void shapes() {
  Padded a;
  Tile<TileType::Vec, half, 16, 32> b;
  Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor> c;
  TileLeft<half, 16, 32> l;
}
