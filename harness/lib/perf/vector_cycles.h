#pragma once
// Cycles of one vector tile instruction on an AIV, from pto-isa's on-device fitted cost formulas
// (include/pto/costmodel/a2a3/formula_costmodel/formula_params.csv: cycles = slope x elements + bias,
// docs/perf-model.md), the bias (the instruction's fixed cost) included.
#include <cstdint>
#include <string_view>

namespace portcheck::perf {

// `op`: the pl operation without namespace ("exp", "row_sum", "add"); `rows` x `row_bytes`: the largest
// tile it reads; `tile_operands`: how many of its operands are tiles (a scalar operand costs half).
double vectorCycles(std::string_view op, std::int64_t rows, std::int64_t row_bytes, int tile_operands);

// The fixed part of vectorCycles: the formula's bias, paid once per instruction whatever the tile.
double vectorFixedCycles(std::string_view op);

}  // namespace portcheck::perf
