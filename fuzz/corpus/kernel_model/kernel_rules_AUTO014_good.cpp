// AUTO014: the cube and vector halves behind their core guards (preprocessor and if constexpr forms).
#include <pto/pto-inst.hpp>
using namespace pto;

using A = TileLeft<half, 16, 32>;
using B = TileRight<half, 32, 16>;
using C = TileAcc<float, 16, 16>;
using V = Tile<TileType::Vec, float, 16, 16>;

#ifdef __DAV_CUBE__
constexpr bool DAV_CUBE = true;
#else
constexpr bool DAV_CUBE = false;
#endif

AICORE void matmul_relu(A& a, B& b, C& c, V& v) {
#if defined(__DAV_C220_CUBE__) || defined(__DAV_CUBE__)
  TMATMUL(c, a, b);
#endif
#ifdef __DAV_VEC__
  TRELU(v, v);
#endif
}

AICORE void matmul_exp(A& a, B& b, C& c, V& v) {
  if constexpr (DAV_CUBE) {
    TMATMUL(c, a, b);
  } else {
    TEXP(v, v);
  }
}
