"""port-check run mode: guard zones around the output tensors (GOLD023, docs/contract.md §5).

Each output (pl.Out and pl.InOut) is handed to the program as a contiguous view into a larger flat
buffer of its dtype, whose bytes before and after the view hold a sentinel pattern. After the run a
changed guard byte means the kernel wrote outside its tensor.

guard_mode "host_view": the guard lives in the host buffer the program is called with. This catches an
overrun only when the runtime writes the tensor's results into that host memory in place (the mock
simulator of the tests does). The real runtime does not: simpler stages each tensor into a device buffer
of exactly its bytes and copies exactly those back (runtime_maker.cpp, stage_device_args), so a
device-side overrun never reaches this guard. Measured on a2a3sim: a 512-byte overrun passed its
contract unseen, a 2048-byte one crashed the run process (GOLD014); docs/run-stage.md.
"""

from __future__ import annotations

SENTINEL = 0xA5
GUARD_MIN_BYTES = 4096  # at least 4 KiB on each side ...
GUARD_ROWS = 32  # ... or 32 rows (of the last dimension) when that is larger ...
GUARD_MAX_BYTES = 16 << 20  # ... but at most 16 MiB, so a very wide row does not cost gigabytes
GUARD_MODE = "host_view"


class Guarded:
    """One output placed between two guard zones."""

    def __init__(self, name: str, buffer, start: int, count: int):
        self.name = name
        self.buffer = buffer  # the flat buffer: guard, tensor, guard
        self.start = start  # first element of the tensor in the buffer
        self.count = count  # elements of the tensor


def guard_elements(shape, element_size: int) -> int:
    row = int(shape[-1]) if len(shape) >= 2 else 0
    wanted = max(GUARD_MIN_BYTES, min(GUARD_ROWS * row * element_size, GUARD_MAX_BYTES))
    return -(-wanted // element_size)


def place(name: str, tensor, torch):
    """(view, Guarded): `tensor`'s contents in a view of the same shape and dtype inside a guarded
    buffer; (tensor, None) for what cannot be guarded (not a tensor, no elements)."""
    if not isinstance(tensor, torch.Tensor) or tensor.numel() == 0 or tensor.is_complex():
        return tensor, None
    size = tensor.element_size()
    guard = guard_elements(list(tensor.shape), size)
    count = int(tensor.numel())
    buffer = torch.empty(guard + count + guard, dtype=tensor.dtype, device=tensor.device)
    buffer.view(torch.uint8).fill_(SENTINEL)
    region = buffer[guard:guard + count]
    region.copy_(tensor.detach().reshape(-1))
    return region.view(tensor.shape), Guarded(name, buffer, guard, count)


def check(guarded: Guarded, torch) -> list[dict]:
    """The guard bytes that changed: per side, {"tensor", "side", "bytes_changed", "first_offset"}, where
    first_offset counts bytes outward from the tensor (0 = the byte right after its last byte, or right
    before its first), so it names the changed byte nearest to the tensor."""
    raw = guarded.buffer.detach().to("cpu").view(torch.uint8)
    size = guarded.buffer.element_size()
    head = guarded.start * size
    tail = (guarded.start + guarded.count) * size
    findings = []
    before = torch.nonzero(raw[:head] != SENTINEL, as_tuple=False).reshape(-1)
    if before.numel():
        findings.append({"tensor": guarded.name, "side": "before", "bytes_changed": int(before.numel()),
                         "first_offset": int(head - 1 - int(before.max()))})
    after = torch.nonzero(raw[tail:] != SENTINEL, as_tuple=False).reshape(-1)
    if after.numel():
        findings.append({"tensor": guarded.name, "side": "after", "bytes_changed": int(after.numel()),
                         "first_offset": int(after.min())})
    return findings
