"""The program to port: a token embedding lookup scaled by sqrt(hidden), as Gemma's embedding layer
computes it (nn.Embedding, then the normaliser sqrt(hidden_size))."""
import math

import torch

TOKENS, VOCAB, HIDDEN = 256, 4096, 512


def embed(ids: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    """ids: [TOKENS] INT32 in [0, VOCAB); table: [VOCAB, HIDDEN] FP32 -> [TOKENS, HIDDEN] FP32."""
    return table[ids.long()] * math.sqrt(HIDDEN)


if __name__ == "__main__":
    print(embed(torch.randint(0, VOCAB, (TOKENS,), dtype=torch.int32), torch.randn(VOCAB, HIDDEN)).shape)
