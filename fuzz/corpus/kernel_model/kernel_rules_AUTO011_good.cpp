// AUTO011: a plain aggregate, initialised where it is created.
#include <pto/pto-inst.hpp>
using namespace pto;

struct SoftmaxParams {
  uint32_t rows;
  uint32_t cols;
  float scale;
  static constexpr uint32_t kAlign = 32;
};

AICORE uint32_t elements() {
  SoftmaxParams p{16, 64, 1.0f};
  return p.rows * p.cols;
}
