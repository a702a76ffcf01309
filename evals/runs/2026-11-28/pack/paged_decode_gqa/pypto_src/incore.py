"""Constants of the port paged_decode_gqa; the kernel itself is the pl.spmd body in orchestration.py.

Grouped-query attention: the 16 query heads of KV head g of sequence i (rows i*32 + g*16 .. +16 of
query) share K/V, so they form the cube's M = 16; one SPMD block per (i, g), 8 in one dispatch.
K/V of cache block b, head g are read straight from the pools at rows b*32 .., columns g*128 ..
(no gather copy). Per block, two passes over the sequence's n = ceil(len / 32) cache blocks, no
online rescaling:

  pass 1, j = 0 .. n-1:  AIC  S = q K_j^T                    [16, 32] FP32 -> AIV
                         AIV  M = max(M, mask(S * scale))     elementwise, M [16, 32]
  m = row_max(M), broadcast [16, 32]
  pass 2, j = 0 .. n-1:  AIC  S = q K_j^T                    -> AIV
                         AIV  P = exp(max(NEG, mask(S * scale)) - m);  L += P      -> AIC: BF16(P)
                         AIC  o = BF16(P) V_j  (j = 0)  /  o += BF16(P) V_j         in the cube's Acc
  out rows = BF16(o / row_sum(L))

mask: set_validshape(., 16, min(32, len - 32 j)) + fillpad(min) on the AIV's copy of S (the
compiler refuses a runtime-narrowed extent on the matmul result itself); max(NEG_MAT, .) turns the
fillpad tile type (PadValue::Min) back into a plain one, which the simulators' TADD needs.
"""
import pypto.language as pl

NUM_SEQS = 4
NUM_HEADS = 32
NUM_KV_HEADS = 2
GROUP = NUM_HEADS // NUM_KV_HEADS  # 16 query heads per KV head
HEAD_DIM = 128
BLOCK_SIZE = 32
MAX_BLOCKS = 8
NUM_BLOCKS = 40
ATTN_SCALE = 0.08838834764831845  # 1 / sqrt(128)
NEG = -1.0e30
