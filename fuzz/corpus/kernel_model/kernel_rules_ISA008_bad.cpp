// ISA008: tensors touched element by element and fed to a compute instruction.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 1, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>>;

AICORE void scale(__gm__ float* y, __gm__ float* x, V& t) {
  for (int i = 0; i < 64; ++i) {
    y[i] = x[i] * 2.0f;  // expect: ISA008 ISA008
  }
  *y = 0.0f;  // expect: ISA008
  G g(x);
  TADD(t, t, g);  // expect: ISA008
}
