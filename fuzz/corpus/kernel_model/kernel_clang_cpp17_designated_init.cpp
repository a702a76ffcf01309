#include <pto/pto-inst.hpp>
using namespace pto;

struct BlockShape {
  int rows;
  int cols;
};

using V = Tile<TileType::Vec, float, 16, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

extern "C" __global__ AICORE void scale_block(__gm__ float* y, __gm__ float* x) {
  BlockShape shape{.rows = 16, .cols = 64};
  G xg(x + shape.rows * 0), yg(y);
  V t;
  TLOAD(t, xg);
  TMULS(t, t, 0.5f);
  TSTORE(yg, t);
}
