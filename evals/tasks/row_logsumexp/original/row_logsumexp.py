"""The program to port: torch.logsumexp over the vocabulary of each token's logits, the normaliser a
cross-entropy loss subtracts (max-shifted, so large logits do not overflow)."""
import torch

TOKENS, VOCAB = 512, 2048


def row_logsumexp(logits: torch.Tensor) -> torch.Tensor:
    """logits: [TOKENS, VOCAB] FP32 -> [TOKENS, 1] FP32."""
    m = logits.amax(dim=-1, keepdim=True)
    return m + (logits - m).exp().sum(dim=-1, keepdim=True).log()


if __name__ == "__main__":
    x = torch.randn(TOKENS, VOCAB) * 4.0
    assert torch.allclose(row_logsumexp(x), torch.logsumexp(x, dim=-1, keepdim=True), atol=1e-5)
    print("OK")
