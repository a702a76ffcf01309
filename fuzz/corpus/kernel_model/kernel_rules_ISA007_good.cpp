// ISA007: views alias their source and take no storage; two 64 KiB tiles plus views fit.
#include <pto/pto-inst.hpp>
using namespace pto;

using Big = Tile<TileType::Vec, float, 128, 128>;
using Flat = Tile<TileType::Vec, float, 1, 16384>;

AICORE void two_buffers() {
  Big a, b;
  Flat fa;
  TRESHAPE(fa, a);
  Flat fb;
  TRESHAPE(fb, b);
  TEXPANDS(a, 0.0f);
  TADD(fb, fa, fa);
}
