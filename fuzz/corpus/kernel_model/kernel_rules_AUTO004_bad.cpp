// AUTO004: CCE intrinsics doing the work PTO instructions express.
#include <pto/pto-inst.hpp>
using namespace pto;

AICORE void copy_and_add(__gm__ float* y, __gm__ float* x, __ubuf__ float* ub) {
  copy_gm_to_ubuf(ub, x, 0, 1, 8, 0, 0);  // expect: AUTO004
  vadd(ub, ub, ub, 1, 1, 1, 1, 8, 8, 8);  // expect: AUTO004
  copy_ubuf_to_gm(y, ub, 0, 1, 8, 0, 0);  // expect: AUTO004
}
