"""The program to port: RMSNorm (as Hugging Face's Qwen3RMSNorm computes it) followed by per-token
dynamic symmetric INT8 quantisation of the normalised activations (what a W8A8 linear layer takes)."""
import torch

TOKENS, HIDDEN, EPS = 128, 1024, 1e-6


def rmsnorm_quant(x: torch.Tensor, weight: torch.Tensor):
    """x: [TOKENS, HIDDEN] FP32, weight: [HIDDEN] FP32 -> (q INT8 [TOKENS, HIDDEN], scale FP32 [TOKENS, 1])."""
    variance = x.pow(2).mean(-1, keepdim=True)
    y = x * torch.rsqrt(variance + EPS) * weight
    amax = y.abs().amax(dim=-1, keepdim=True).clamp(min=1e-6)
    scale = amax / 127.0
    q = torch.round(y / scale).clamp(-127, 127).to(torch.int8)
    return q, scale


if __name__ == "__main__":
    q, scale = rmsnorm_quant(torch.randn(TOKENS, HIDDEN), torch.rand(HIDDEN) + 0.5)
    print(q.dtype, q.shape, scale.shape)
