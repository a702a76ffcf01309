"""The program to port: rotary position embedding as Hugging Face's Llama/Qwen code applies it
(rotate_half), to the query of 256 tokens with 8 heads of 128, cos and sin shared by the heads."""
import torch

TOKENS, HEADS, HEAD_DIM = 256, 8, 128


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def rope(q: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """q: [TOKENS, HEADS, HEAD_DIM]; cos, sin: [TOKENS, HEAD_DIM], broadcast over the heads."""
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin


if __name__ == "__main__":
    q = torch.randn(TOKENS, HEADS, HEAD_DIM)
    pos = torch.arange(TOKENS, dtype=torch.float32)[:, None]
    inv_freq = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2, dtype=torch.float32) / HEAD_DIM))
    freqs = torch.cat((pos * inv_freq, pos * inv_freq), dim=-1)
    out = rope(q, freqs.cos(), freqs.sin())
    print(out.shape)
