"""The program to port: the depthwise causal convolution over time that Mamba applies before its scan
(torch.nn.Conv1d with groups=channels, kernel 4, padding 3, the last 3 outputs dropped)."""
import torch
import torch.nn.functional as F

TOKENS, CHANNELS, WIDTH = 256, 512, 4


def causal_conv1d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x: [TOKENS, CHANNELS]; weight: [CHANNELS, WIDTH]; bias: [CHANNELS] -> [TOKENS, CHANNELS].
    out[t, c] = bias[c] + sum_k weight[c, k] * x[t - (WIDTH - 1) + k, c], x before t = 0 being 0."""
    y = F.conv1d(x.t().unsqueeze(0), weight.unsqueeze(1), bias, padding=WIDTH - 1, groups=x.shape[1])
    return y[0, :, : x.shape[0]].t()


if __name__ == "__main__":
    out = causal_conv1d(torch.randn(TOKENS, CHANNELS), torch.randn(CHANNELS, WIDTH), torch.randn(CHANNELS))
    print(out.shape)
