// AUTO012: tile functions returning a value and taking pointers or references.
#include <pto/pto-inst.hpp>
using namespace pto;

template <typename TileData>
__tf__ AICORE float row_max(typename TileData::DType* src) {  // expect: AUTO012 AUTO012
  return src[0];
}

template <typename TileData>
__tf__ AICORE void scale(TileData& dst, typename TileData::TileDType __in__ src) {  // expect: AUTO012
}
