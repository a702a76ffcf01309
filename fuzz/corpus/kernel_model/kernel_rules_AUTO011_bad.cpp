// AUTO011: default member initializers in a kernel's parameter struct.
#include <pto/pto-inst.hpp>
using namespace pto;

struct SoftmaxParams {
  uint32_t rows = 16;  // expect: AUTO011
  uint32_t cols;
  float scale = 1.0f;  // expect: AUTO011
  static constexpr uint32_t kAlign = 32;
};
