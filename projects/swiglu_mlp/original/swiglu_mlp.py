"""The program being ported: the SwiGLU feed-forward block of a LLaMA-style decoder layer.

    gate = x @ w_gate^T               [T, I]
    up   = x @ w_up^T                 [T, I]
    h    = silu(gate) * up            silu(g) = g * sigmoid(g)
    y    = h @ w_down^T               [T, H]

x [128, 1024] BF16 (128 tokens, hidden 1024); the weights in nn.Linear's [out, in] layout:
w_gate / w_up [2816, 1024] BF16, w_down [1024, 2816] BF16 (intermediate 2816 = 2.75 x hidden, as
LLaMA's 8/3 rule rounded to a multiple of 256).
The port accumulates the matmuls in FP32 and rounds the activation h to BF16 once, because it is
the operand of the down projection; y is returned in FP32 (the caller adds it to the residual).
"""
import torch


def swiglu_mlp(x: torch.Tensor, w_gate: torch.Tensor, w_up: torch.Tensor, w_down: torch.Tensor) -> torch.Tensor:
    lin = torch.nn.functional.linear
    gate = lin(x.float(), w_gate.float())
    up = lin(x.float(), w_up.float())
    h = (torch.nn.functional.silu(gate) * up).to(torch.bfloat16)
    return lin(h.float(), w_down.float())


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(128, 1024).to(torch.bfloat16)
    w_gate = (torch.randn(2816, 1024) / 32.0).to(torch.bfloat16)
    w_up = (torch.randn(2816, 1024) / 32.0).to(torch.bfloat16)
    w_down = (torch.randn(1024, 2816) / 53.0).to(torch.bfloat16)
    y = swiglu_mlp(x, w_gate, w_up, w_down)
    # The same block as torch's BF16 module computes it (gate and up rounded to BF16 too).
    g = (x.float() @ w_gate.float().t()).to(torch.bfloat16).float()
    u = (x.float() @ w_up.float().t()).to(torch.bfloat16).float()
    ref = (g * torch.sigmoid(g) * u).to(torch.bfloat16).float() @ w_down.float().t()
    assert torch.allclose(y, ref, rtol=5e-2, atol=5e-2), (y - ref).abs().max()
    print("OK")
