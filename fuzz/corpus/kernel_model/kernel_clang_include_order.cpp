#include <pto/common/constants.hpp>
#include <pto/pto-inst.hpp>
using namespace pto;

AICORE void k() {}
