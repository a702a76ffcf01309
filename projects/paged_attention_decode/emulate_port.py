"""A torch model of the port's arithmetic, to check the golden's tolerance (not the reference).

It follows pypto_src/orchestration.py: per sequence, block 0 (its statistics initialise m / l / o)
and then every further block of the context through the block table, columns past the context
length masked to -inf before the row max, P rounded to BF16 before the PV product, FP32
elsewhere, BF16 output. It prints the largest error against golden.compute_golden and whether
golden's RTOL / ATOL accept it. Run: python3 projects/paged_attention_decode/emulate_port.py
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "pypto_src"))
import golden as G  # noqa: E402


def prepare(s, scale, valid):
    scaled = s * scale
    scaled[:, valid:] = float("-inf")
    m = scaled.max(dim=-1).values
    p = torch.exp(scaled - m[:, None]).to(torch.bfloat16)
    return p, m, p.float().sum(dim=-1)


def emulate(t):
    scale = 1.0 / math.sqrt(G.HEAD_DIM)
    bs, nh = G.BLOCK_SIZE, G.NUM_HEADS
    out = torch.zeros(G.BATCH * nh, G.HEAD_DIM)
    for b in range(G.BATCH):
        n = int(t["context_lens"][b])
        q = t["query"][b * nh:(b + 1) * nh].float()
        m = l = o = None
        for j in range((n + bs - 1) // bs):
            phys = int(t["block_table"][b * G.MAX_BLOCKS + j])
            k = t["key_cache"][phys * bs:(phys + 1) * bs].float()
            v = t["value_cache"][phys * bs:(phys + 1) * bs].float()
            p_b, m_b, l_b = prepare(q @ k.T, scale, min(bs, n - j * bs))
            o_b = p_b.float() @ v
            if j == 0:
                m, l, o = m_b, l_b, o_b
                continue
            m_new = torch.maximum(m, m_b)
            a, c = torch.exp(m - m_new), torch.exp(m_b - m_new)
            l = a * l + c * l_b
            o = a[:, None] * o + c[:, None] * o_b
            m = m_new
        out[b * nh:(b + 1) * nh] = o / l[:, None]
    return out.to(torch.bfloat16)


if __name__ == "__main__":
    tensors = dict(G.generate_inputs())
    expected = {"out": tensors["out"].clone()}
    G.compute_golden({**tensors, **expected})
    got, ref = emulate(tensors).float(), expected["out"].float()
    err = (got - ref).abs()
    print(f"max |err| {err.max().item():.3g}; largest excess over RTOL*|ref| {(err - G.RTOL * ref.abs()).max().item():.3g}; "
          f"allclose(RTOL={G.RTOL}, ATOL={G.ATOL}): {torch.allclose(got, ref, rtol=G.RTOL, atol=G.ATOL)}")
