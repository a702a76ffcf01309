// AUTO006: GlobalTensor::data() is the GM pointer; tile-function bodies may use tile data().
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using G = GlobalTensor<float, Shape<1, 1, 1, 16, 64>, Stride<1, 1, 1, 64, 1>>;

template <typename TileData>
__tf__ AICORE void fill_impl(typename TileData::TileDType __out__ dst) {
}

template <typename TileData>
PTO_INTERNAL void FILL_IMPL(TileData& t) {
  fill_impl<TileData>(t.data());
}

AICORE void store_it(__gm__ float* out, V& t) {
  G g(out);
  __gm__ float* raw = g.data();
  (void)raw;
  TSTORE(g, t);
}
