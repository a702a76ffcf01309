"""Handlers port-check adds to PyPTO's torch_codegen (pypto.debug.torch_codegen._OP_MAP, its documented
extension point) for ops it does not lower yet, or lowers in a form torch rejects, so the first-wrong-task
look (port_check_localise.py, docs/first-wrong-task.md) can run the IR of the ports that use them:
    tile.tri, tensor.tri                 a triangular mask (pypto.language.tile.tri's semantics)
    tile.set_validshape, tensor.set_validshape
                                         marks the valid region that a following fillpad pads
    tile.col_expand_add, tensor.col_expand_add
                                         a row vector added to every row (its siblings sub/mul/div exist)
    *.maximum(s), *.minimum(s)           with a Python number as an operand (torch.maximum wants tensors)
A handler already in the map is kept unless listed as replaced here; each helper is defined in the
namespace the generated script runs in."""

from __future__ import annotations

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

    return {"_port_check_tri": tri, "_port_check_set_validshape": set_validshape,
            "_port_check_maximum": maximum, "_port_check_minimum": minimum}


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
    return changed
