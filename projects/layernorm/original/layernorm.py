"""The program being ported: LayerNorm over the hidden axis of a BERT-base sized activation.

    y = (x - mean(x, -1)) / sqrt(var(x, -1) + eps) * gamma + beta     (biased variance)

x [1024, 768] FP32 (8 sequences of 128 tokens, hidden 768); gamma, beta [768] FP32; y FP32.
"""
import torch

EPS = 1e-5


def layernorm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = EPS) -> torch.Tensor:
    mean = x.mean(dim=-1, keepdim=True)
    centered = x - mean
    var = centered.pow(2).mean(dim=-1, keepdim=True)
    return centered / torch.sqrt(var + eps) * gamma + beta


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(1024, 768) * 3.0 + 2.0
    gamma = torch.rand(768) + 0.5
    beta = torch.randn(768) * 0.1
    expected = torch.nn.functional.layer_norm(x, (768,), gamma, beta, eps=EPS)
    assert torch.allclose(layernorm(x, gamma, beta), expected, rtol=1e-4, atol=1e-5)
    print("OK")
