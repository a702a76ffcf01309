// ISA005: rows (ND) and columns (DN) that are not 32-byte multiples.
#include <pto/pto-inst.hpp>
using namespace pto;

constexpr int kCols = 6;
using Narrow = Tile<TileType::Vec, float, 16, kCols>;

AICORE void shapes() {
  Narrow a;  // expect: ISA005
  Tile<TileType::Vec, half, 16, 24> b;  // expect: ISA005
  Tile<TileType::Vec, float, 12, 1, BLayout::ColMajor> c;  // expect: ISA005
}
