"""The calibration cases, shared by the CANN side (cann_side.py) and ours (compare.py).

Each case is one tile op (or a small operator) on one tile of one AIV / AIC core: loaded from GM,
computed, stored back. Fields:
  name     case name; the DSL fixture's kernel is named the same (dsl/<cls>.py)
  cls      op class: the table's median and spread are per class
  op       what the CANN side builds (cann_side.py's BUILDERS)
  shape    [rows, cols] of the tile, or [M, K, N] of a matmul
  dtype    fp32 / fp16 / bf16
  pipe     the pipe the case calibrates (VECTOR, CUBE); every case's loads and stores calibrate MTE2 / MTE3
No third-party import here: CI reads this file without CANN's wheel.
"""

CASES = [
    # elementwise, two tile operands
    {"name": "add_16x64", "cls": "vec_binary", "op": "add", "shape": [16, 64], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "add_64x64", "cls": "vec_binary", "op": "add", "shape": [64, 64], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "add_64x128", "cls": "vec_binary", "op": "add", "shape": [64, 128], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "add_64x128_fp16", "cls": "vec_binary", "op": "add", "shape": [64, 128], "dtype": "fp16",
     "pipe": "VECTOR"},
    {"name": "mul_64x64", "cls": "vec_binary", "op": "mul", "shape": [64, 64], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "mul_32x128", "cls": "vec_binary", "op": "mul", "shape": [32, 128], "dtype": "fp32", "pipe": "VECTOR"},
    # elementwise with a scalar operand
    {"name": "adds_64x64", "cls": "vec_scalar", "op": "adds", "shape": [64, 64], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "adds_64x128", "cls": "vec_scalar", "op": "adds", "shape": [64, 128], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "muls_64x64", "cls": "vec_scalar", "op": "muls", "shape": [64, 64], "dtype": "fp32", "pipe": "VECTOR"},
    # transcendental
    {"name": "exp_64x64", "cls": "vec_exp", "op": "exp", "shape": [64, 64], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "exp_64x128", "cls": "vec_exp", "op": "exp", "shape": [64, 128], "dtype": "fp32", "pipe": "VECTOR"},
    # division: by a tile, by a scalar
    {"name": "div_64x64", "cls": "vec_div", "op": "div", "shape": [64, 64], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "div_64x128", "cls": "vec_div", "op": "div", "shape": [64, 128], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "divs_64x64", "cls": "vec_divs", "op": "divs", "shape": [64, 64], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "divs_64x128", "cls": "vec_divs", "op": "divs", "shape": [64, 128], "dtype": "fp32", "pipe": "VECTOR"},
    # reciprocal square root
    {"name": "rsqrt_64x64", "cls": "vec_rsqrt", "op": "rsqrt", "shape": [64, 64], "dtype": "fp32", "pipe": "VECTOR"},
    {"name": "rsqrt_64x128", "cls": "vec_rsqrt", "op": "rsqrt", "shape": [64, 128], "dtype": "fp32",
     "pipe": "VECTOR"},
    # row reductions
    {"name": "rowsum_64x64", "cls": "row_reduce", "op": "row_sum", "shape": [64, 64], "dtype": "fp32",
     "pipe": "VECTOR"},
    {"name": "rowsum_64x128", "cls": "row_reduce", "op": "row_sum", "shape": [64, 128], "dtype": "fp32",
     "pipe": "VECTOR"},
    {"name": "rowmax_64x64", "cls": "row_reduce", "op": "row_max", "shape": [64, 64], "dtype": "fp32",
     "pipe": "VECTOR"},
    {"name": "rowmax_64x128", "cls": "row_reduce", "op": "row_max", "shape": [64, 128], "dtype": "fp32",
     "pipe": "VECTOR"},
    # a row broadcast: x - r, r one value per row
    {"name": "rowexpsub_64x64", "cls": "row_broadcast", "op": "row_expand_sub", "shape": [64, 64], "dtype": "fp32",
     "pipe": "VECTOR"},
    {"name": "rowexpsub_64x128", "cls": "row_broadcast", "op": "row_expand_sub", "shape": [64, 128],
     "dtype": "fp32", "pipe": "VECTOR"},
    # a softmax row block: max, subtract, exp, sum, divide
    {"name": "softmax_32x64", "cls": "softmax", "op": "softmax", "shape": [32, 64], "dtype": "fp32",
     "pipe": "VECTOR"},
    {"name": "softmax_64x128", "cls": "softmax", "op": "softmax", "shape": [64, 128], "dtype": "fp32",
     "pipe": "VECTOR"},
    # cube matmul [M, K, N], BF16 / FP16 in, FP32 out; each operand fits L0A / L0B (64 KiB), the result L0C
    {"name": "mm_64x64x64_bf16", "cls": "matmul", "op": "matmul", "shape": [64, 64, 64], "dtype": "bf16",
     "pipe": "CUBE"},
    {"name": "mm_128x128x128_bf16", "cls": "matmul", "op": "matmul", "shape": [128, 128, 128], "dtype": "bf16",
     "pipe": "CUBE"},
    {"name": "mm_128x256x128_fp16", "cls": "matmul", "op": "matmul", "shape": [128, 256, 128], "dtype": "fp16",
     "pipe": "CUBE"},
    {"name": "mm_128x64x128_bf16", "cls": "matmul", "op": "matmul", "shape": [128, 64, 128], "dtype": "bf16",
     "pipe": "CUBE"},
    {"name": "mm_64x256x128_bf16", "cls": "matmul", "op": "matmul", "shape": [64, 256, 128], "dtype": "bf16",
     "pipe": "CUBE"},
    {"name": "mm_128x128x256_fp16", "cls": "matmul", "op": "matmul", "shape": [128, 128, 256], "dtype": "fp16",
     "pipe": "CUBE"},
]
