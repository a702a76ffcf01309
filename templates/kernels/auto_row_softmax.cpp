// AUTO-mode PTO-ISA incore kernel template: numerically stable softmax over each row of a
// [rows, 256] FP32 matrix, ROW_TILE rows per step.
//
// AUTO mode (bisheng --cce-pto-enable --cce-pto-auto-enable -O2, or -D__PTO_AUTO__ on the CPU
// simulator): the compiler allocates every tile and inserts every intra-core pipe sync. So this
// file has no TASSIGN, no set_flag/wait_flag/pipe_barrier, no Event<>, no TSYNC, never calls
// tile.data(), and passes tiles by reference only. GM tensors become tiles only through TLOAD and
// return only through TSTORE.
//
// UB (Vec) budget per step, a2a3 (pypto caps Vec at 188416 B; the physical UB is 192 KiB):
//   x, e (exp), tmp   3 x ROW_TILE x COLS x 4 B = 3 x 16384 B = 49152 B
//   row max, row sum  2 x ROW_TILE x 1 x 4 B, padded to 32 B   =    128 B
//   total about 49280 B (26 % of 188416 B). Each row is COLS x 4 B = 1024 B (>= 512 B per GM row).
//
// Syntax/type check without an NPU (pto-isa headers at <pto-isa>):
//   clang++-19 -std=c++20 -fsyntax-only -D__CPU_SIM -D__PTO_AUTO__ \
//     -isystem <pto-isa>/include -include stdint.h -include stddef.h auto_row_softmax.cpp
#include <pto/pto-inst.hpp>

using namespace pto;

namespace row_softmax_config {
constexpr int kRowTile = 16;  // rows per step; a DN (ColMajor) row-reduction tile needs 16 x 4 B = 64 B, a multiple of 32 B
constexpr int kCols = 256;    // contiguous axis; a multiple of 8 FP32 keeps every ND row 32-B aligned
}  // namespace row_softmax_config

AICORE void row_softmax(__gm__ float* x, __gm__ float* out, int64_t rows) {
  using namespace row_softmax_config;
  using RowBlock = Tile<TileType::Vec, float, kRowTile, kCols, BLayout::RowMajor, kRowTile, kCols>;
  using RowScalar = Tile<TileType::Vec, float, kRowTile, 1, BLayout::ColMajor, kRowTile, 1>;  // one value per row
  using GmBlock = GlobalTensor<float, Shape<1, 1, 1, kRowTile, kCols>, Stride<1, 1, 1, kCols, 1>>;

  for (int64_t rb = 0; rb < rows / kRowTile; ++rb) {
    GmBlock x_gm(x + rb * kRowTile * kCols);
    GmBlock out_gm(out + rb * kRowTile * kCols);
    RowBlock x_tile;
    RowBlock e_tile;
    RowBlock tmp;
    RowScalar row_max;
    RowScalar row_sum;

    TLOAD(x_tile, x_gm);                    // GM -> UB
    TROWMAX(row_max, x_tile, tmp);          // m = max_j x[i, j]
    TROWEXPANDSUB(e_tile, x_tile, row_max); // x - m (full-size operand has dst's exact type, AUTO rule)
    TEXP(e_tile, e_tile);                   // e = exp(x - m), every value in (0, 1]
    TROWSUM(row_sum, e_tile, tmp);          // s = sum_j e[i, j], s >= 1
    TROWEXPANDDIV(e_tile, e_tile, row_sum); // softmax = e / s
    TSTORE(out_gm, e_tile);                 // UB -> GM
  }
}

#if defined(ROW_SOFTMAX_RUNTIME_ENTRY)
// Runtime entry for the simpler PTO2 runtime: tensor arguments first, then scalars. Define
// ROW_SOFTMAX_RUNTIME_ENTRY when building against the runtime, which provides "tensor.h"
// (ChipTensor); the syntax check above and a host test harness leave it out.
#include "tensor.h"
extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
  __gm__ ChipTensor* x_tensor = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* out_tensor = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ float* x = reinterpret_cast<__gm__ float*>(x_tensor->buffer.addr) + x_tensor->start_offset;
  __gm__ float* out = reinterpret_cast<__gm__ float*>(out_tensor->buffer.addr) + out_tensor->start_offset;
  union {
    uint64_t u64;
    int64_t val;
  } rows;
  rows.u64 = static_cast<uint64_t>(args[2]);
  row_softmax(x, out, rows.val);
}
#endif
