"""A torch model of the port's arithmetic, to check the golden's tolerance (not the reference).

It follows pypto_src/orchestration.py: per head and 64-row query tile the diagonal block first
(causal bias tile, its statistics initialise m / l / o), then the blocks below the diagonal merged
one by one; P rounded to BF16 before the PV product, FP32 everywhere else, BF16 output. It prints
the largest error against golden.compute_golden and whether golden's RTOL / ATOL accept it.
Run: python3 projects/flash_attention_prefill/emulate_port.py
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "pypto_src"))
import golden as G  # noqa: E402


def prepare(s, scale, bias=None):
    scaled = s * scale if bias is None else s * scale + bias
    m = scaled.max(dim=-1).values
    p = torch.exp(scaled - m[:, None]).to(torch.bfloat16)
    return p, m, p.float().sum(dim=-1)


def emulate(t):
    q, k, v, bias = t["q"], t["k"], t["v"], t["causal_bias"]
    scale = 1.0 / math.sqrt(G.HEAD_DIM)
    out = torch.zeros(G.NUM_HEADS * G.SEQ, G.HEAD_DIM)
    for h in range(G.NUM_HEADS):
        for qb in range(G.SEQ // G.Q_TILE):
            r0 = h * G.SEQ + qb * G.Q_TILE
            q_tile = q[r0:r0 + G.Q_TILE].float()
            p, m, l = prepare(q_tile @ k[r0:r0 + G.KV_BLOCK].float().T, scale, bias)
            o = p.float() @ v[r0:r0 + G.KV_BLOCK].float()
            for kb in range(qb):
                c0 = h * G.SEQ + kb * G.KV_BLOCK
                p_b, m_b, l_b = prepare(q_tile @ k[c0:c0 + G.KV_BLOCK].float().T, scale)
                o_b = p_b.float() @ v[c0:c0 + G.KV_BLOCK].float()
                m_new = torch.maximum(m, m_b)
                a, b = torch.exp(m - m_new), torch.exp(m_b - m_new)
                l = a * l + b * l_b
                o = a[:, None] * o + b[:, None] * o_b
                m = m_new
            out[r0:r0 + G.Q_TILE] = o / l[:, None]
    return out.to(torch.bfloat16)


if __name__ == "__main__":
    tensors = dict(G.generate_inputs())
    expected = {"out": tensors["out"].clone()}
    G.compute_golden({**tensors, **expected})
    got, ref = emulate(tensors).float(), expected["out"].float()
    err = (got - ref).abs()
    print(f"max |err| {err.max().item():.3g}; largest excess over RTOL*|ref| {(err - G.RTOL * ref.abs()).max().item():.3g}; "
          f"allclose(RTOL={G.RTOL}, ATOL={G.ATOL}): {torch.allclose(got, ref, rtol=G.RTOL, atol=G.ATOL)}")
