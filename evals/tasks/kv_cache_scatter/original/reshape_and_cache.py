"""The program to port: vLLM's reshape_and_cache (the flash layout), which writes the keys and values
of the tokens of one step into the paged KV cache: token i goes to slot slot_mapping[i], that is
block slot // block_size, row slot % block_size of that block; a slot of -1 is a padding token and
is not written. The cache is updated in place; every slot not named keeps its value."""
import torch

NUM_TOKENS, NUM_KV_HEADS, HEAD_SIZE = 64, 4, 128
NUM_BLOCKS, BLOCK_SIZE = 32, 16


def reshape_and_cache(
    key: torch.Tensor,           # [NUM_TOKENS, NUM_KV_HEADS, HEAD_SIZE] BF16
    value: torch.Tensor,         # [NUM_TOKENS, NUM_KV_HEADS, HEAD_SIZE] BF16
    key_cache: torch.Tensor,     # [NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE] BF16, updated in place
    value_cache: torch.Tensor,   # [NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE] BF16, updated in place
    slot_mapping: torch.Tensor,  # [NUM_TOKENS] INT32: distinct slots in [0, NUM_BLOCKS * BLOCK_SIZE), or -1
) -> None:
    for i in range(key.shape[0]):
        slot = int(slot_mapping[i])
        if slot < 0:
            continue
        block_idx, block_offset = divmod(slot, key_cache.shape[1])
        key_cache[block_idx, block_offset] = key[i]
        value_cache[block_idx, block_offset] = value[i]


if __name__ == "__main__":
    k = torch.randn(NUM_TOKENS, NUM_KV_HEADS, HEAD_SIZE).bfloat16()
    kc = torch.zeros(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE).bfloat16()
    vc = kc.clone()
    slots = torch.randperm(NUM_BLOCKS * BLOCK_SIZE)[:NUM_TOKENS].int()
    reshape_and_cache(k, k.clone(), kc, vc, slots)
    print(torch.equal(kc.view(-1, NUM_KV_HEADS, HEAD_SIZE)[slots.long()], k))
