"""The program being ported: a fused residual add followed by RMSNorm (a pre-norm decoder layer).

    h            = x + residual                       (in FP32)
    residual_out = h, rounded to BF16                 (the residual stream of the next layer)
    y            = h * rsqrt(mean(h^2, -1) + eps) * weight, rounded to BF16

Shapes are one prefill chunk of a 4096-wide model: x, residual [512, 4096] BF16, weight [4096]
BF16. Statistics and the normalisation are computed in FP32 from the unrounded sum h.
"""
import torch

EPS = 1e-6


def rmsnorm_residual(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float = EPS):
    h = x.float() + residual.float()
    inv_rms = torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + eps)
    y = h * inv_rms * weight.float()
    return y.to(torch.bfloat16), h.to(torch.bfloat16)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(512, 4096).to(torch.bfloat16)
    residual = (torch.randn(512, 4096) * 4.0).to(torch.bfloat16)
    weight = (torch.rand(4096) + 0.5).to(torch.bfloat16)
    y, residual_out = rmsnorm_residual(x, residual, weight)
    h = x.float() + residual.float()
    # An independent formulation: the RMS is the row's 2-norm over sqrt(hidden).
    rms = torch.sqrt(torch.linalg.vector_norm(h, dim=-1, keepdim=True) ** 2 / 4096 + EPS)
    expected = h / rms * weight.float()
    assert torch.allclose(y.float(), expected, rtol=1.6e-2, atol=1e-3)
    assert torch.equal(residual_out, h.to(torch.bfloat16))
    print("OK")
