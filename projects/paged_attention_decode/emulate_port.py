"""A torch model of the port's arithmetic, to check the golden's tolerance (not the reference).

It follows pypto_src/incore.py (the fused decode_sequence): per sequence, every block of the
context through the block table in one loop; scores scaled, the key columns past the context
length set to -1e30 (fillpad -inf, then max with -1e30); P = BF16(exp(S - m_new)) against the
running max m_new; the running sum kept per key column (L) and summed at the end; o rescaled by
exp(m - m_new) and added to P @ V in FP32; BF16 output. With --task-level it models the previous
task-level form instead (block 0 initialises m / l / o, each block's P against its own max, merge
with two rescale factors). It prints the largest error against golden.compute_golden and whether
golden's RTOL / ATOL accept it. Run: python3 projects/paged_attention_decode/emulate_port.py
"""
import math
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "pypto_src"))
import golden as G  # noqa: E402

NEG = -1.0e30


def blocks(t, b):
    """(K block, V block, valid length) of every logical block of sequence b."""
    bs, n = G.BLOCK_SIZE, int(t["context_lens"][b])
    for j in range((n + bs - 1) // bs):
        phys = int(t["block_table"][b * G.MAX_BLOCKS + j])
        yield (t["key_cache"][phys * bs:(phys + 1) * bs].float(), t["value_cache"][phys * bs:(phys + 1) * bs].float(),
               min(bs, n - j * bs))


def fused(q, t, b, scale):
    m = torch.full((q.shape[0], 1), NEG)
    l_mat = torch.zeros(q.shape[0], G.BLOCK_SIZE)
    o = torch.zeros(q.shape[0], G.HEAD_DIM)
    for k, v, valid in blocks(t, b):
        s = (q @ k.T) * scale
        s[:, valid:] = NEG
        m_new = torch.maximum(s.max(dim=-1, keepdim=True).values, m)
        p = torch.exp(s - m_new).to(torch.bfloat16)
        alpha = torch.exp(m - m_new)
        l_mat = l_mat * alpha + p.float()
        o = o * alpha + p.float() @ v
        m = m_new
    return o / l_mat.sum(dim=-1, keepdim=True)


def task_level(q, t, b, scale):
    m = l = o = None
    for k, v, valid in blocks(t, b):
        s = (q @ k.T) * scale
        s[:, valid:] = float("-inf")
        m_b = s.max(dim=-1).values
        p_b = torch.exp(s - m_b[:, None]).to(torch.bfloat16)
        l_b, o_b = p_b.float().sum(dim=-1), p_b.float() @ v
        if m is None:
            m, l, o = m_b, l_b, o_b
            continue
        m_new = torch.maximum(m, m_b)
        a, c = torch.exp(m - m_new), torch.exp(m_b - m_new)
        l = a * l + c * l_b
        o = a[:, None] * o + c[:, None] * o_b
        m = m_new
    return o / l[:, None]


def emulate(t, form=fused):
    scale = 1.0 / math.sqrt(G.HEAD_DIM)
    nh = G.NUM_HEADS
    out = torch.zeros(G.BATCH * nh, G.HEAD_DIM)
    for b in range(G.BATCH):
        out[b * nh:(b + 1) * nh] = form(t["query"][b * nh:(b + 1) * nh].float(), t, b, scale)
    return out.to(torch.bfloat16)


if __name__ == "__main__":
    tensors = dict(G.generate_inputs())
    expected = {"out": tensors["out"].clone()}
    G.compute_golden({**tensors, **expected})
    form = task_level if "--task-level" in sys.argv[1:] else fused
    got, ref = emulate(tensors, form).float(), expected["out"].float()
    err = (got - ref).abs()
    print(f"{form.__name__}: max |err| {err.max().item():.3g}; largest excess over RTOL*|ref| "
          f"{(err - G.RTOL * ref.abs()).max().item():.3g}; "
          f"allclose(RTOL={G.RTOL}, ATOL={G.ATOL}): {torch.allclose(got, ref, rtol=G.RTOL, atol=G.ATOL)}")
