// ISA002: instructions on tile locations the NPU has no path for (the CPU simulator accepts them all).
#include <pto/pto-inst.hpp>
using namespace pto;

using M = Tile<TileType::Mat, half, 16, 64>;
using A = TileLeft<half, 16, 64>;
using C = TileAcc<float, 16, 16>;
using V = Tile<TileType::Vec, half, 16, 64>;
using G = GlobalTensor<half, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

AICORE void wrong_places(__gm__ half* out, M& m, A& a, C& c, V& v) {
  G g(out);
#if defined(__DAV_VEC__)
  TEXP(m, m);  // expect: ISA002
  TMUL(c, c, c);  // expect: ISA002
#else
  TSTORE(g, a);  // expect: ISA002
  TMOV(a, v);  // expect: ISA002
  TLOAD(a, g);  // expect: ISA002
  TMATMUL(c, m, a);  // expect: ISA002
#endif
}
