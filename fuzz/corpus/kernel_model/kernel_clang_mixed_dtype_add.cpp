#include <pto/pto-inst.hpp>
using namespace pto;

using F = Tile<TileType::Vec, float, 16, 64>;
using H = Tile<TileType::Vec, half, 16, 64>;

template <typename D, typename S>
AICORE void addInto(D& dst, S& src) {
  TADD(dst, dst, src);
}

extern "C" __global__ AICORE void mixed_add(__gm__ float* x) {
  F a;
  H b;
  addInto(a, b);
  Tile<TileType::Vec, float, 16, 6> c;

}
