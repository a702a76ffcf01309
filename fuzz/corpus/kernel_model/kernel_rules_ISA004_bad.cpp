// ISA004: element types a2a3 does not support for these instructions.
#include <pto/pto-inst.hpp>
using namespace pto;

using B16 = Tile<TileType::Vec, bfloat16_t, 16, 64>;
using I8 = Tile<TileType::Vec, int8_t, 16, 64>;
using I32 = Tile<TileType::Vec, int32_t, 16, 64>;
using A = TileLeft<half, 16, 32>;
using B = TileRight<half, 32, 16>;
using C16 = TileAcc<half, 16, 16>;

AICORE void unsupported(B16& x, I8& q, I32& n, A& a, B& b, C16& c) {
#if defined(__DAV_VEC__)
  TADD(x, x, x);  // expect: ISA004
  TMAX(q, q, q);  // expect: ISA004
  TEXP(n, n);  // expect: ISA004
#endif
#if defined(__DAV_CUBE__)
  TMATMUL(c, a, b);  // expect: ISA004
#endif
}
