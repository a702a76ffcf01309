"""The program to port: a BF16 linear layer with bias followed by GELU in its tanh approximation
(GPT-2's MLP up-projection: nn.Linear then nn.GELU(approximate="tanh")), accumulated in FP32."""
import math

import torch

TOKENS, IN_FEATURES, OUT_FEATURES = 128, 512, 1024


def linear_gelu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: [TOKENS, IN] BF16; weight: [OUT, IN] BF16 (nn.Linear's layout); bias: [OUT] FP32 -> [TOKENS, OUT] FP32."""
    h = x.float() @ weight.float().t() + bias
    return 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h.pow(3))))


if __name__ == "__main__":
    x = torch.randn(TOKENS, IN_FEATURES).bfloat16()
    w = (torch.randn(OUT_FEATURES, IN_FEATURES) / math.sqrt(IN_FEATURES)).bfloat16()
    print(linear_gelu(x, w, torch.randn(OUT_FEATURES)).shape)
