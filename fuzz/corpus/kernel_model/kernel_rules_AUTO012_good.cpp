// AUTO012: void tile functions taking TileDType by value with __in__/__out__.
#include <pto/pto-inst.hpp>
using namespace pto;

template <typename TileData>
__tf__ AICORE void scale(typename TileData::TileDType __out__ dst, typename TileData::TileDType __in__ src,
                         float factor) {
}
