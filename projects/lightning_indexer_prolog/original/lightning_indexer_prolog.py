"""The program being ported: the quantised projection that prepares a lightning indexer's inputs.

Modelled on the indexer of DeepSeek-V3.2 (the "prolog" that runs before the index scores): the
index queries come from the query latent qr, the index key from the hidden state x; both are
mixed by a Hadamard rotation (it spreads outlier channels over all channels, so one scale per
row quantises well) and quantised per row to INT8 with an FP32 scale:

    q[t, h, :] = (qr[t] @ wq_b[:, h*D:(h+1)*D]) @ H          per token t and index head h
    k[t, :]    = (x[t] @ wk) @ H
    q_int8, q_scale = quant(q)   one scale per (token, head);  k_int8, k_scale = quant(k)

with quant(r) = round(r * 127 / max|r|), scale = max|r| / 127, and H the Sylvester Hadamard
matrix of order D divided by sqrt(D). DeepSeek-V3.2 additionally applies a LayerNorm to k, RoPE
to part of q and k before the rotation, and quantises to FP8 with block scales; this port keeps
the matmul -> Hadamard -> per-row INT8 quantisation core. The projections round to BF16 before
the rotation (the model keeps activations in BF16). Scales are returned head-major [H, T].
"""
import torch


def hadamard(order: int) -> torch.Tensor:
    """Sylvester Hadamard matrix of `order` (a power of two), normalised to an orthogonal matrix."""
    h = torch.ones(1, 1)
    while h.shape[0] < order:
        h = torch.cat([torch.cat([h, h], dim=1), torch.cat([h, -h], dim=1)], dim=0)
    return h / order ** 0.5


def quant_rows(r: torch.Tensor):
    amax = r.abs().amax(dim=-1).clamp_min(1e-6)
    q = torch.round(r * (127.0 / amax)[..., None]).clamp(-127, 127).to(torch.int8)
    return q, amax / 127.0


def indexer_prolog(x, qr, wq_b, wk, hadamard_bf16, num_heads, head_dim):
    """x [T, HIDDEN], qr [T, Q_LORA], wq_b [Q_LORA, H*D], wk [HIDDEN, D], hadamard [D, D]; BF16."""
    tokens = x.shape[0]
    q = (qr.float() @ wq_b.float()).to(torch.bfloat16).float().reshape(tokens, num_heads, head_dim)
    q = q @ hadamard_bf16.float()
    k = (x.float() @ wk.float()).to(torch.bfloat16).float() @ hadamard_bf16.float()
    q_int8, q_scale = quant_rows(q)
    k_int8, k_scale = quant_rows(k)
    return q_int8.reshape(tokens, num_heads * head_dim), q_scale.T.contiguous(), k_int8, k_scale[None, :]


if __name__ == "__main__":
    torch.manual_seed(0)
    T, HID, QL, H, D = 16, 256, 128, 2, 128
    x, qr = torch.randn(T, HID).to(torch.bfloat16), torch.randn(T, QL).to(torch.bfloat16)
    wq_b, wk = (torch.randn(QL, H * D) / QL ** 0.5).to(torch.bfloat16), (torch.randn(HID, D) / HID ** 0.5).to(torch.bfloat16)
    had = hadamard(D)
    assert torch.allclose(had @ had.T, torch.eye(D), atol=1e-6)
    q8, qs, k8, ks = indexer_prolog(x, qr, wq_b, wk, had.to(torch.bfloat16), H, D)
    # Dequantised INT8 reproduces the rotated projection within half a step per element.
    q_ref = (qr.float() @ wq_b.float()).to(torch.bfloat16).float().reshape(T, H, D) @ had.to(torch.bfloat16).float()
    assert bool(((q8.reshape(T, H, D).float() * qs.T[..., None] - q_ref).abs() <= qs.T[..., None] * 0.5001).all())
    # The rotation preserves the norm of each row (up to the BF16 rounding of H).
    k_lin = (x.float() @ wk.float()).to(torch.bfloat16).float()
    assert torch.allclose((k_lin @ had).norm(dim=-1), k_lin.norm(dim=-1), rtol=1e-5)
    print("OK")
