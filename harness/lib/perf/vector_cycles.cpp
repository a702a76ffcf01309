#include "perf/vector_cycles.h"

#include <string>

namespace portcheck::perf {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.rfind(p, 0) == 0; }

bool oneOf(std::string_view op, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (op == n) return true;
  return false;
}

}  // namespace

double vectorFixedCycles(std::string_view op) { return vectorCycles(op, 0, 0, 1); }

double vectorCycles(std::string_view op, std::int64_t rows, std::int64_t row_bytes, int tile_operands) {
  // One pass: 256 bytes per cycle (64 FP32 / 128 FP16 lanes; TADDS fp32 slope 0.0156 per element).
  const double pass = static_cast<double>(rows) * static_cast<double>(row_bytes) / 256.0;
  const double r = static_cast<double>(rows);
  const double row_passes = static_cast<double>(row_bytes) / 256.0;  // one row's passes
  // Row reductions: ~6 cycles per row plus the row's passes (TROWSUM / TROWMAX fp32: 7 per row at 64
  // columns, 8 at 128).
  // Each formula's bias is the instruction's fixed cost (15-62 cycles in the table).
  if (oneOf(op, {"row_sum", "row_max", "row_min", "row_prod"})) return 50.0 + r * (6.0 + row_passes * 2.0);
  // Per-row broadcasts (TROWEXPAND fp32: 14-15 cycles per row at 64-128 columns, bias 35-37), then the op.
  if (startsWith(op, "row_expand")) return 37.0 + r * (13.0 + row_passes * 2.0);
  // Column reductions walk the rows one by one (TCOLSUM fp32 at 128 columns: 22 cycles per row, bias 8-36).
  if (startsWith(op, "col_")) return 15.0 + r * (2.0 + row_passes * 10.0);
  // A reciprocal square root is one pass (pto-isa's 910B3 calibration of TRSQRT fp32: 1.07 cycles per
  // 256-byte repeat + 24, cce_costmodel_vector_compute.hpp vrsqrt). It was priced as a division (5 passes):
  // 4.9x the device's figure (bench/README.md, the calibration against CANN's cost model).
  if (op == "rsqrt") return 24.0 + pass * 1.07;
  // A division of two tiles: 4 passes (TDIV fp32, DEFAULT mode, on 910B3: 4.03 per repeat + 31, vdiv in
  // the same file); by a scalar 5 (TDIVS fp32 of formula_params.csv: 0.078 per element, bias 36-62).
  if (op == "div" && tile_operands >= 2) return 31.0 + pass * 4.03;
  if (oneOf(op, {"div", "divs", "recip", "remainder", "fmod", "mod"})) return 45.0 + pass * 5.0;
  // Transcendentals and square roots (TEXP, TSQRT: 0.0314 per element = 2 passes, bias 30-31).
  if (oneOf(op, {"exp", "log", "sqrt", "ln", "pow", "erf", "sin", "cos", "sigmoid", "tanh", "exp2"}))
    return 30.0 + pass * 2.0;
  // Elementwise with two tile operands (TMUL, TSUB: 0.031 per element = 2 passes, bias 16-26); with a
  // scalar operand one pass (TADDS, TMULS: 0.0156, bias 16-42).
  return 25.0 + pass * (tile_operands >= 2 ? 2.0 : 1.0);
}

}  // namespace portcheck::perf
