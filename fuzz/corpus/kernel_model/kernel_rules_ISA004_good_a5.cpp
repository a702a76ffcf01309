// platform: a5
// ISA004: a5 accepts bf16 TADD; the same kernel is clean there.
#include <pto/pto-inst.hpp>
using namespace pto;

using B16 = Tile<TileType::Vec, bfloat16_t, 16, 64>;

AICORE void bf16_add(B16& x) {
  TADD(x, x, x);
}
