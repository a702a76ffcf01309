// ISA001: CCE qualifiers, a kernel launch and a file-scope macro invocation all parse.
#include <pto/pto-inst.hpp>
using namespace pto;

#define INSTANTIATE_ALL(X) X(16) X(32)

template <int N>
__global__ AICORE void fill(__gm__ float* x) {
}

void launch(float* x, void* stream) {
  fill<16><<<8, nullptr, stream>>>(x);
}

INSTANTIATE_ALL(DECLARE_FILL)
