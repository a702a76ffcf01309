"""The program to port: the attention probabilities of Hugging Face's eager attention
(eager_attention_forward, as a ViT / Whisper-encoder layer computes them, no mask): the scaled
query-key products of each head and a softmax over the keys in FP32, the tensor a model returns
with output_attentions=True."""
import torch
from torch import nn

NUM_HEADS, Q_LEN, KV_LEN, HEAD_DIM = 4, 128, 256, 64


def attn_probs(query: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
    """query: [NUM_HEADS, Q_LEN, HEAD_DIM] BF16; key: [NUM_HEADS, KV_LEN, HEAD_DIM] BF16
    -> [NUM_HEADS, Q_LEN, KV_LEN] FP32."""
    scaling = HEAD_DIM ** -0.5
    attn_weights = torch.matmul(query.float(), key.float().transpose(-1, -2)) * scaling
    return nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32)


if __name__ == "__main__":
    q = torch.randn(NUM_HEADS, Q_LEN, HEAD_DIM).bfloat16()
    k = torch.randn(NUM_HEADS, KV_LEN, HEAD_DIM).bfloat16()
    p = attn_probs(q, k)
    print(p.shape, p.sum(dim=-1).mean())
