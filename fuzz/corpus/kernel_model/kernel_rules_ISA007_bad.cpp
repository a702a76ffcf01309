// ISA007: four 64 KiB Vec tiles live in one function (256 KiB > 192 KiB UB on a2a3).
#include <pto/pto-inst.hpp>
using namespace pto;

using Big = Tile<TileType::Vec, float, 128, 128>;

AICORE void four_buffers() {  // expect: ISA007
  Big a, b, c, d;
  TEXPANDS(a, 0.0f);
  TADD(b, a, a);
  TADD(c, b, a);
  TADD(d, c, b);
}
