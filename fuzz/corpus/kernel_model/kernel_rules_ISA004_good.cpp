// ISA004: a2a3-supported element types.
#include <pto/pto-inst.hpp>
using namespace pto;

using F = Tile<TileType::Vec, float, 16, 64>;
using H = Tile<TileType::Vec, half, 16, 64>;
using I32 = Tile<TileType::Vec, int32_t, 16, 64>;
using A = TileLeft<half, 16, 32>;
using B = TileRight<half, 32, 16>;
using C = TileAcc<float, 16, 16>;

AICORE void supported(F& x, H& h, I32& n, A& a, B& b, C& c) {
#if defined(__DAV_VEC__)
  TADD(x, x, x);
  TMAX(n, n, n);
  TEXP(h, h);
#endif
#if defined(__DAV_CUBE__)
  TMATMUL(c, a, b);
#endif
}
