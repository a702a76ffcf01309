// AUTO005: manual mask setup and cross-core signalling in AUTO-mode code.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;

AICORE void softplus(V& y, V& x, __gm__ uint64_t* ffts) {
  set_mask_norm();  // expect: AUTO005
  set_vector_mask(-1, -1);  // expect: AUTO005
  set_ffts_base_addr((uint64_t)ffts);  // expect: AUTO005
  TEXP(y, x);
  TADDS(y, y, 1.0f);
  TLOG(y, y);
}
