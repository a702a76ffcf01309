"""Handlers port-check adds to PyPTO's torch_codegen (pypto.debug.torch_codegen._OP_MAP, its documented
extension point) for ops it does not lower yet, or lowers in a form torch rejects, so the first-wrong-task
look (port_check_localise.py, docs/first-wrong-task.md) can run the IR of the ports that use them:
    tile.tri, tensor.tri                 a triangular mask (pypto.language.tile.tri's semantics)
    tile.set_validshape, tensor.set_validshape
                                         marks the valid region that a following fillpad pads
    tile.col_expand_add, tensor.col_expand_add
                                         a row vector added to every row (its siblings sub/mul/div exist)
    *.maximum(s), *.minimum(s)           with a Python number as an operand (torch.maximum wants tensors)
    tile.get_block_idx                   the block an SPMD dispatch runs (torch_codegen writes 0), with
                                         spmd_blocks() giving the caller each SPMD function's block count
A handler already in the map is kept unless listed as replaced here; each helper is defined in the
namespace the generated script runs in."""
from __future__ import annotations

import re

REPLACED = ("maximum", "minimum", "maximums", "minimums")


def helpers(torch) -> dict:
    """The functions the handlers' code calls, for the generated script's namespace."""

    def tri(diagonal, shape, dtype=torch.int32, upper=False):
        rows, cols = (int(s) for s in shape)
        i = torch.arange(rows).unsqueeze(1)
        j = torch.arange(cols).unsqueeze(0)
        keep = (j >= i + int(diagonal)) if upper else (j <= i + int(diagonal))
        return keep.to(dtype)

    def set_validshape(tile, rows, cols):
        out = tile.clone()
        out._pypto_full_shape = tuple(int(s) for s in getattr(tile, "_pypto_full_shape", tile.shape))
        out._pypto_valid_shape = (int(rows), int(cols))
        return out

    def as_operand(value, like):
        return value if isinstance(value, torch.Tensor) else torch.as_tensor(value, dtype=like.dtype)

    def maximum(a, b):
        if not isinstance(a, torch.Tensor):
            a, b = b, a
        return torch.maximum(a, as_operand(b, a))

    def minimum(a, b):
        if not isinstance(a, torch.Tensor):
            a, b = b, a
        return torch.minimum(a, as_operand(b, a))

    # PyPTO's torch codegen writes `pl.tile.get_block_idx()` as 0 and runs an SPMD dispatch's kernel once:
    # only block 0's rows would be computed. The block index is this state instead, and each SPMD
    # function of the program runs its kernel once per block (for_each_block, set up by the caller).
    block = {"index": 0}

    def block_idx():
        return block["index"]

    def for_each_block(function, count):
        def run(*args):
            result = None
            try:
                for index in range(int(count)):
                    block["index"] = index
                    result = function(*args)
            finally:
                block["index"] = 0
            return result
        return run

    return {"_port_check_tri": tri, "_port_check_set_validshape": set_validshape,
            "_port_check_maximum": maximum, "_port_check_minimum": minimum,
            "_port_check_block_idx": block_idx, "_port_check_for_each_block": for_each_block}


def register(codegen) -> list[str]:
    """Adds the handlers to codegen._OP_MAP; returns the ops added or replaced."""
    table = codegen._OP_MAP
    kw_dtype = getattr(codegen, "_kw_dtype", None)
    changed = []

    def put(op, handler, replace=False):
        if op not in table or replace:
            table[op] = handler
            changed.append(op)

    for prefix in ("tile", "tensor"):
        if kw_dtype is not None:
            put(f"{prefix}.tri", lambda a, kw: f"_port_check_tri({a[0]}, {a[1]}, dtype={kw_dtype(kw)}, "
                                               f"upper={bool(kw.get('upper', False))})")
        put(f"{prefix}.set_validshape", lambda a, _kw: f"_port_check_set_validshape({a[0]}, {a[1]}, {a[2]})")
        put(f"{prefix}.col_expand_add", lambda a, _kw: f"({a[0]} + {a[1]})")
        for name in REPLACED:
            helper = "_port_check_maximum" if name.startswith("max") else "_port_check_minimum"
            put(f"{prefix}.{name}", lambda a, _kw, _h=helper: f"{_h}({a[0]}, {a[1]})", replace=True)
    put("tile.get_block_idx", lambda _a, _kw: "_port_check_block_idx()", replace=True)
    return changed


SPMD_CALL = re.compile(r"self\.(\w+)\(.*\"core_num\": (\d+)")


def spmd_blocks(printed_program: str) -> dict:
    """SPMD function -> the blocks its dispatch launches, from the program's printed IR: each call of
    it in the orchestration carries `attrs={..., "core_num": N}`. A function dispatched with a count
    known only at run time, or with two different counts, is left out."""
    counts: dict = {}
    for line in printed_program.splitlines():
        for name, count in SPMD_CALL.findall(line):
            counts.setdefault(name, set()).add(int(count))
    return {name: next(iter(c)) for name, c in counts.items() if len(c) == 1}
