// ISA003: the operand forms the instructions take; a trailing event token is not an operand.
#include <pto/pto-inst.hpp>
using namespace pto;

using V = Tile<TileType::Vec, float, 16, 64>;
using R = Tile<TileType::Vec, float, 16, 1, BLayout::ColMajor>;

AICORE void row_stats(R& sum, V& x, V& y, V& tmp) {
  TROWSUM(sum, x, tmp);
  TADD(y, x, x);
  TRSQRT(y, x);
  TRSQRT(y, x, tmp);
}

#ifndef __PTO_AUTO__
AICORE void manual(V& y, V& x, Event<Op::TLOAD, Op::TADD>& ready) {
  TADD(y, x, x, ready);
}
#endif
