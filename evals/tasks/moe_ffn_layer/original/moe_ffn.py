"""The program to port: a sparse mixture-of-experts FFN layer as Hugging Face's
MixtralSparseMoeBlock / Qwen2MoeSparseMoeBlock compute it (norm_topk_prob=True, no shared expert):
a bias-free router projection, a softmax over the experts in FP32, the top-2 experts of each token
with their weights renormalised to sum to 1, each token's hidden state through its two experts'
SwiGLU FFNs (down(silu(gate(x)) * up(x))), and the expert outputs summed with the routing weights.
The experts run in FP32 on the BF16 weights (FP32 accumulation), the output is FP32."""
import torch
import torch.nn.functional as F
from torch import nn

TOKENS, HIDDEN, NUM_EXPERTS, INTERMEDIATE, TOP_K = 64, 128, 8, 128, 2


class MoeExpert(nn.Module):
    def __init__(self, hidden_size: int = HIDDEN, intermediate_size: int = INTERMEDIATE):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: [n, HIDDEN] FP32 -> [n, HIDDEN] FP32, the weights used in FP32."""
        gate = F.linear(x, self.gate_proj.weight.float())
        up = F.linear(x, self.up_proj.weight.float())
        return F.linear(F.silu(gate) * up, self.down_proj.weight.float())


class SparseMoeBlock(nn.Module):
    def __init__(self, hidden_size: int = HIDDEN, num_experts: int = NUM_EXPERTS,
                 intermediate_size: int = INTERMEDIATE, top_k: int = TOP_K):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.gate = nn.Linear(hidden_size, num_experts, bias=False)
        self.experts = nn.ModuleList([MoeExpert(hidden_size, intermediate_size) for _ in range(num_experts)])

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        """hidden_states: [TOKENS, HIDDEN] BF16 -> [TOKENS, HIDDEN] FP32."""
        hidden_states = hidden_states.float()
        router_logits = F.linear(hidden_states, self.gate.weight.float())
        routing_weights = F.softmax(router_logits, dim=-1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights = routing_weights / routing_weights.sum(dim=-1, keepdim=True)

        final_hidden_states = torch.zeros_like(hidden_states)
        # expert_mask[e, j, t] is 1 when expert e is token t's j-th choice
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            idx, top_x = torch.where(expert_mask[expert_idx])
            if top_x.numel() == 0:
                continue
            current_state = hidden_states[top_x]
            current_hidden_states = self.experts[expert_idx](current_state) * routing_weights[top_x, idx, None]
            final_hidden_states.index_add_(0, top_x, current_hidden_states)
        return final_hidden_states


if __name__ == "__main__":
    block = SparseMoeBlock().to(torch.bfloat16)
    out = block(torch.randn(TOKENS, HIDDEN).bfloat16())
    print(out.shape, out.dtype, out.abs().mean())
