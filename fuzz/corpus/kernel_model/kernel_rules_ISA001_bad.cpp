// ISA001: an unbalanced parameter list.
#include <pto/pto-inst.hpp>
using namespace pto;

AICORE void broken(__gm__ float* x {  // expect: ISA001
}
