// platform: a5
// ISA006: a 192 KiB Vec tile and a 256 KiB Acc tile fit a5's UB and L0C.
#include <pto/pto-inst.hpp>
using namespace pto;

AICORE void fits() {
  Tile<TileType::Vec, float, 192, 256> ub;
  TileAcc<float, 256, 256> acc;
}
