// AUTO006: a tile's data() treated as a pointer in kernel code.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

AICORE void first_element(__gm__ float* out, V& t) {
  float* p = t.data();  // expect: AUTO006
  auto q = t.data();  // expect: AUTO006
  (void)p;
  (void)q;
  G g(out);
  __gm__ float* raw = g.data();
  (void)raw;
}
