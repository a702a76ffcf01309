"""A torch model of the port's arithmetic, to check the golden's tolerance (not the reference).

It follows pypto_src/incore.py: per head and 64-row query tile the key blocks 0..qb in order (the
diagonal block last, with the causal cut of causal_bias), an online softmax whose running max and
sum start at -1e30 and 0, P rounded to BF16 before the PV product and summed from its BF16 values,
FP32 everywhere else, BF16 output. It prints
the largest error against golden.compute_golden and whether golden's RTOL / ATOL accept it.
Run: python3 projects/flash_attention_prefill/emulate_port.py
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "pypto_src"))
import golden as G  # noqa: E402


def emulate(t):
    q, k, v, bias = t["q"], t["k"], t["v"], t["causal_bias"]
    scale = 1.0 / math.sqrt(G.HEAD_DIM)
    out = torch.zeros(G.NUM_HEADS * G.SEQ, G.HEAD_DIM)
    for h in range(G.NUM_HEADS):
        for qb in range(G.SEQ // G.Q_TILE):
            r0 = h * G.SEQ + qb * G.Q_TILE
            q_tile = q[r0:r0 + G.Q_TILE].float()
            m = torch.full((G.Q_TILE,), -1.0e30)
            l_mat = torch.zeros(G.Q_TILE, G.KV_BLOCK)
            o = torch.zeros(G.Q_TILE, G.HEAD_DIM)
            for kb in range(qb + 1):
                c0 = h * G.SEQ + kb * G.KV_BLOCK
                b0 = (kb + 1) // (qb + 1) * G.Q_TILE
                s = q_tile @ k[c0:c0 + G.KV_BLOCK].float().T * scale + bias[b0:b0 + G.Q_TILE]
                m_new = torch.maximum(m, s.max(dim=-1).values)
                p = torch.exp(s - m_new[:, None]).to(torch.bfloat16)
                a = torch.exp(m - m_new)
                l_mat = l_mat * a[:, None] + p.float()
                o = o * a[:, None] + p.float() @ v[c0:c0 + G.KV_BLOCK].float()
                m = m_new
            out[r0:r0 + G.Q_TILE] = o / l_mat.sum(dim=-1)[:, None]
    return out.to(torch.bfloat16)


if __name__ == "__main__":
    tensors = dict(G.generate_inputs())
    expected = {"out": tensors["out"].clone()}
    G.compute_golden({**tensors, **expected})
    got, ref = emulate(tensors).float(), expected["out"].float()
    err = (got - ref).abs()
    print(f"max |err| {err.max().item():.3g}; largest excess over RTOL*|ref| {(err - G.RTOL * ref.abs()).max().item():.3g}; "
          f"allclose(RTOL={G.RTOL}, ATOL={G.ATOL}): {torch.allclose(got, ref, rtol=G.RTOL, atol=G.ATOL)}")
