"""The program to port: the router of a sparse mixture-of-experts block, as Hugging Face's
OlmoeSparseMoeBlock / Qwen2MoeSparseMoeBlock compute it (norm_topk_prob=True): a bias-free gate
projection, a softmax over the experts in FP32, the top-k experts of each token and their weights
renormalised to sum to 1."""
import torch
import torch.nn.functional as F
from torch import nn

TOKENS, HIDDEN, NUM_EXPERTS, TOP_K = 128, 512, 64, 8


class MoeRouter(nn.Module):
    def __init__(self, hidden_size: int = HIDDEN, num_experts: int = NUM_EXPERTS, top_k: int = TOP_K):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(hidden_size, num_experts, bias=False)

    def forward(self, hidden_states: torch.Tensor):
        """hidden_states: [TOKENS, HIDDEN] BF16 -> (routing_weights [TOKENS, TOP_K] FP32,
        selected_experts [TOKENS, TOP_K] INT32), both ordered by decreasing weight."""
        router_logits = F.linear(hidden_states.float(), self.gate.weight.float())
        routing_weights = F.softmax(router_logits, dim=-1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights = routing_weights / routing_weights.sum(dim=-1, keepdim=True)
        return routing_weights, selected_experts.to(torch.int32)


if __name__ == "__main__":
    router = MoeRouter().to(torch.bfloat16)
    w, e = router(torch.randn(TOKENS, HIDDEN).bfloat16())
    print(w.shape, e.shape, w.sum(dim=-1)[:4])
