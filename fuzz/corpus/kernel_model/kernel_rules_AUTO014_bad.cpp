// AUTO014: a matmul and its vector epilogue in one unguarded kernel.
#include <pto/pto-inst.hpp>
using namespace pto;

using A = TileLeft<half, 16, 32>;
using B = TileRight<half, 32, 16>;
using C = TileAcc<float, 16, 16>;
using V = Tile<TileType::Vec, float, 16, 16>;

AICORE void matmul_relu(A& a, B& b, C& c, V& v) {
  TMATMUL(c, a, b);
  TRELU(v, v);  // expect: AUTO014
}
