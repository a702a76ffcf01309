"""Constants and tiling of the port linear_gelu's one kernel (the kernel body is the pl.spmd loop
of orchestration.py: a pl.spmd launch is dispatched as one submit, so its body lives in the entry).

    out = gelu_tanh(x @ weight^T + bias)
    gelu_tanh(h) = 0.5 h (1 + tanh(z)) = h * sigmoid(2 z) = h / (1 + exp(-2 z)),
    z = sqrt(2/pi) (h + 0.044715 h^3)

One mixed cube + vector block per [M_TILE, N_TILE] tile of out:
  cube    [M_TILE, K_TILE] chunks of x against [N_TILE, K_TILE] chunks of weight (nn.Linear's
          layout, K contiguous, b_trans=True), FP32 accumulation in Acc over the K loop
  vector  bias (col_expand_add), the GELU in its sigmoid form, one FP32 store into out;
          pl.split(UP_DOWN) gives each of the cluster's two AIVs half of the rows.
h never reaches GM.
"""
TOKENS = 128
IN_FEATURES = 512
OUT_FEATURES = 1024
M_TILE = 128
N_TILE = 64
K_TILE = 128
STAGES = 2

TUNABLES = {
    "M_TILE": (32, 64, 128),
    "N_TILE": (32, 64, 128, 256),
    "K_TILE": (128, 256, 512),
    "STAGES": (1, 2),
}

SQRT_2_OVER_PI = 0.7978845608028654
GELU_C = 0.044715
