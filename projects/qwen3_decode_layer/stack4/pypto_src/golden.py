"""Golden for the 4-layer stack of qwen3_decode_layer: four layers in sequence, each with its own
weights and caches, compared with a pass-rate comparator as pypto-lib compares deep BF16 stacks.

The reference is original/qwen3_decode_layer.py's qwen3_decode_stack (the single layer four
times). Layer l's weights are rows l * n .. of the stacked tensors (norm weights one row a layer),
its caches rows l * 3072 .. of key_cache / value_cache; out [64, 1024] holds every layer's output,
rows l * 16 .. (the last block is the stack's). Inputs otherwise as the single layer's golden.
"""
import importlib.util
import sys
from pathlib import Path

import torch

_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(_ROOT / "original"))
from qwen3_decode_layer import qwen3_decode_stack, random_layer_weights  # noqa: E402

# The single layer's golden.py (its constants and inputs), loaded under its own name.
_spec = importlib.util.spec_from_file_location("qwen3_layer_golden", _ROOT / "pypto_src" / "golden.py")
layer_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layer_golden)

ENTRY = "qwen3_decode_stack"
__outputs__ = ["key_cache", "value_cache", "out"]

LAYERS = 4
RTOL = 1.6e-2
ATOL = 1.6e-2
SEED = 20260402

B = layer_golden.BATCH
H = layer_golden.HIDDEN
D = layer_golden.HEAD_DIM
SLOTS = layer_golden.SLOTS
KV_DIM = layer_golden.KV_DIM
POOL = layer_golden.POOL_BLOCKS
BS = layer_golden.BLOCK_SIZE

CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"x_scale": 16.0, "qk_scale": 2.0}},
        "past_context": {"category": "neg_inf", "params": {"ctx_shift": -3}},
    },
    # Four BF16 layers: one-ULP differences of a layer's FP32 sums travel through the residual
    # stream and the next layer's norms (the single layer passes at two ULP with 99.9 %). Measured
    # on a2a3sim over 9 case runs: out 1.0-1.2 % of elements past two ULP (base, past_context),
    # 0.1 % (large); the caches 0-159 of 12,582,912 elements, all in the 65,536 elements the four
    # cache writes fill (PORTING.md section 6). As pypto-lib's pass-rate comparator for deep stacks:
    # 97 % of out, 99.99 % of each cache within two ULP; a wrong stage moves far more.
    "compare": {
        "out": {"rtol": 1.6e-2, "atol": 1.6e-2, "pass_rate": 0.97},
        "key_cache": {"rtol": 1.6e-2, "atol": 1.6e-2, "pass_rate": 0.9999},
        "value_cache": {"rtol": 1.6e-2, "atol": 1.6e-2, "pass_rate": 0.9999},
    },
}

_NAMES = [
    ("input_norm_w", "input_layernorm"), ("wq", "q_proj"), ("wk", "k_proj"), ("wv", "v_proj"),
    ("q_norm_w", "q_norm"), ("k_norm_w", "k_norm"), ("wo", "o_proj"),
    ("post_norm_w", "post_attention_layernorm"), ("w_gate", "gate_proj"), ("w_up", "up_proj"),
    ("w_down", "down_proj"),
]


def build_tensor_specs(params=None):
    specs = []
    for s in layer_golden.build_tensor_specs(params):
        if s["name"] in ("q_rot", "attn", "resid1"):
            continue
        s = dict(s)
        if s["name"] in dict(_NAMES) or s["name"] in ("key_cache", "value_cache"):
            s["shape"] = [s["shape"][0] * LAYERS, s["shape"][1]]
        if s["name"] == "out":
            s["shape"] = [B * LAYERS, H]
        specs.append(s)
    return specs


def generate_inputs(params=None):
    params = params or {}
    seed = params.get("seed", SEED)
    base = dict(layer_golden.generate_inputs({**params, "seed": seed}))
    gen = torch.Generator().manual_seed(seed + 1)
    layers = [random_layer_weights(gen, scale_qk_norm=float(params.get("qk_scale", 1.0))) for _ in range(LAYERS)]
    caches_k = [base["key_cache"]]
    caches_v = [base["value_cache"]]
    for _ in range(LAYERS - 1):
        # Each further layer: its own history, the same huge values past each context.
        kc = torch.randn(SLOTS, KV_DIM, generator=gen).to(torch.bfloat16)
        vc = torch.randn(SLOTS, KV_DIM, generator=gen).to(torch.bfloat16)
        mask = base["key_cache"] == 30.0
        kc[mask] = 30.0
        vc[mask] = 100.0
        caches_k.append(kc)
        caches_v.append(vc)
    out = []
    for s in build_tensor_specs(params):
        n = s["name"]
        if n in dict(_NAMES):
            hf = dict(_NAMES)[n]
            out.append((n, torch.cat([w[hf].reshape(-1, w[hf].shape[-1]) if w[hf].dim() == 2 else w[hf].reshape(1, -1) for w in layers])))
        elif n == "key_cache":
            out.append((n, torch.cat(caches_k)))
        elif n == "value_cache":
            out.append((n, torch.cat(caches_v)))
        elif n == "out":
            out.append((n, torch.zeros(B * LAYERS, H, dtype=torch.bfloat16)))
        else:
            out.append((n, base[n]))
    return out


def compute_golden(tensors, params=None):
    layers = []
    for l in range(LAYERS):
        w = {}
        for n, hf in _NAMES:
            t = tensors[n]
            rows = t.shape[0] // LAYERS
            piece = t[l * rows:(l + 1) * rows]
            w[hf] = piece.reshape(-1) if rows == 1 else piece
        layers.append(w)
    kcs = [tensors["key_cache"][l * SLOTS:(l + 1) * SLOTS].clone().reshape(POOL, BS, KV_DIM // D, D) for l in range(LAYERS)]
    vcs = [tensors["value_cache"][l * SLOTS:(l + 1) * SLOTS].clone().reshape(POOL, BS, KV_DIM // D, D) for l in range(LAYERS)]
    _, outs = qwen3_decode_stack(
        layers, tensors["hidden_states"], tensors["cos"], tensors["sin"], kcs, vcs,
        tensors["block_table"].reshape(B, -1), tensors["context_lens"],
    )
    tensors["key_cache"][:] = torch.cat([k.reshape(SLOTS, KV_DIM) for k in kcs])
    tensors["value_cache"][:] = torch.cat([v.reshape(SLOTS, KV_DIM) for v in vcs])
    tensors["out"][:] = torch.cat(outs)
