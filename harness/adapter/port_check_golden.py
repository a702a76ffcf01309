"""port-check run mode: what golden.py provides for a run (docs/run-stage.md §2): its params, golden
function, tolerances, inputs and outputs, and where the entry declares each output.

Used by port_check_run.py (the driver); every problem golden.py has is a RunContractError.
"""

from __future__ import annotations

import inspect
import os
import random

from port_check_contract import RunContractError

DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-5


# --------------------------------------------------------------------------------------------------
# Reading golden.py


def _params(module):
    cases = getattr(module, "ALL_CASES", None)
    default = getattr(module, "DEFAULT_CASE", None)
    if isinstance(cases, dict) and cases:
        return cases[default] if default in cases else next(iter(cases.values()))
    return {}


def _call_flexibly(fn, *args):
    """Calls fn with as many of `args` as it has positional parameters, optional ones included:
    `generate_inputs(params=None)` gets the case's params, `golden_<entry>(tensors)` only the tensors."""
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return fn(*args)
    if any(p.kind == p.VAR_POSITIONAL for p in parameters):
        return fn(*args)
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is inspect.Parameter.empty]
    if len(required) > len(args):
        return fn(*args)  # let Python say which argument is missing
    return fn(*args[: len(positional)])


def golden_function(module, entry_name: str):
    for name in ("compute_golden", f"golden_{entry_name}", "golden"):
        fn = getattr(module, name, None)
        if callable(fn):
            return name, fn
    return None, None


def tolerances(module) -> tuple[float, float, str]:
    rtol = getattr(module, "RTOL", None)
    atol = getattr(module, "ATOL", None)
    source = "golden.py" if rtol is not None or atol is not None else "default"
    return (float(rtol) if rtol is not None else DEFAULT_RTOL, float(atol) if atol is not None else DEFAULT_ATOL,
            source)


def _tolerance_pair(name: str, value) -> tuple[float, float]:
    """(rtol, atol) from a TOLERANCES value: a (rtol, atol) pair or {"rtol": r, "atol": a}."""
    if isinstance(value, dict):
        unknown = sorted(set(value) - {"rtol", "atol"})
        if unknown:
            raise RunContractError(f"TOLERANCES[{name!r}] has unknown keys {unknown}: give rtol and atol")
        pair = (value.get("rtol", DEFAULT_RTOL), value.get("atol", DEFAULT_ATOL))
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        pair = tuple(value)
    else:
        raise RunContractError(f"TOLERANCES[{name!r}] must be (rtol, atol) or {{\"rtol\": r, \"atol\": a}}, "
                               f"got {value!r}")
    try:
        rtol, atol = float(pair[0]), float(pair[1])
    except (TypeError, ValueError):
        raise RunContractError(f"TOLERANCES[{name!r}] holds a non-number: {value!r}") from None
    if not (rtol >= 0 and atol >= 0):  # also rejects NaN
        raise RunContractError(f"TOLERANCES[{name!r}] must be non-negative numbers, got {value!r}")
    return rtol, atol


def output_tolerances(module, outputs: list[str], rtol: float, atol: float, source: str) -> dict:
    """Per output: (rtol, atol, source). TOLERANCES = {"out": (rtol, atol), ...} in golden.py sets an
    output's own pair (outputs of different dtypes or computations); the others take RTOL / ATOL."""
    table = getattr(module, "TOLERANCES", None)
    per = {name: (rtol, atol, source) for name in outputs}
    if table is None:
        return per
    if not isinstance(table, dict):
        raise RunContractError(f"TOLERANCES must be a dict of output name -> (rtol, atol), got {type(table).__name__}")
    unknown = [str(n) for n in table if str(n) not in per]
    if unknown:
        raise RunContractError(f"TOLERANCES names {', '.join(repr(n) for n in unknown)}, which are not outputs "
                               f"(outputs: {', '.join(outputs)})")
    for name, value in table.items():
        per[str(name)] = (*_tolerance_pair(str(name), value), "TOLERANCES")
    return per


def _seed_everything(seed: int, torch) -> None:
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy  # noqa: PLC0415

        numpy.random.seed(seed)
    except Exception:  # noqa: BLE001 - numpy is optional for goldens
        pass


def _spec_get(spec, key, default=None):
    if isinstance(spec, dict):
        return spec.get(key, default)
    return getattr(spec, key, default)


def _tensor_from_spec(spec, torch, torch_dtype):
    """A tensor for one TensorSpec: init_value (constant, tensor or callable) or seeded random data."""
    shape = [int(d) for d in _spec_get(spec, "shape")]
    dtype = torch_dtype(_spec_get(spec, "dtype"), torch)
    init = _spec_get(spec, "init_value")
    if init is None:
        if _spec_get(spec, "is_output", False):
            return torch.zeros(shape, dtype=dtype)
        if dtype.is_floating_point:
            return torch.randn(shape, dtype=torch.float32).to(dtype)
        if dtype == torch.bool:
            return torch.randint(0, 2, shape).to(torch.bool)
        return torch.randint(-8, 8, shape).to(dtype)
    if callable(init):
        value = _call_flexibly(init, shape, dtype)
        return torch.as_tensor(value).to(dtype).reshape(shape)
    if isinstance(init, torch.Tensor):
        return init.clone().to(dtype).reshape(shape)
    return torch.full(shape, init, dtype=dtype)


def named_values(produced, module, torch, scalar_value, error=RunContractError):
    """[(name, value)] from what generate_inputs returned (pairs or a dict), scalars wrapped, in TENSOR_ORDER
    when golden.py sets one; `error(message)` is raised for an entry that is not a pair. The compile adapter
    shares it with the run mode."""
    items = produced.items() if isinstance(produced, dict) else produced
    values = []
    for item in items or []:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise error(f"generate_inputs must return (name, value) pairs, got {item!r}")
        name, value = item
        if not isinstance(value, torch.Tensor):
            if hasattr(value, "__array__") and not isinstance(value, (int, float, bool)):
                value = torch.as_tensor(value)
            else:
                value = scalar_value(value)
        values.append((str(name), value))
    order = getattr(module, "TENSOR_ORDER", None)
    if order:
        by_name = dict(values)
        values = [(n, by_name[n]) for n in order if n in by_name]
    return values


def generate_named_inputs(module, params, torch, torch_dtype, scalar_value, result: dict):
    """[(name, value)] from generate_inputs(params), else from build_tensor_specs()."""
    inputs = getattr(module, "generate_inputs", None)
    if callable(inputs):
        result["inputs_source"] = "generate_inputs"
        return named_values(_call_flexibly(inputs, params), module, torch, scalar_value, RunContractError)
    builder = getattr(module, "build_tensor_specs", None)
    if callable(builder):
        result["inputs_source"] = "build_tensor_specs"
        values = []
        for spec in _call_flexibly(builder, params) or []:
            name = str(_spec_get(spec, "name"))
            if _spec_get(spec, "shape") is None:
                values.append((name, scalar_value(_spec_get(spec, "value"))))
            else:
                values.append((name, _tensor_from_spec(spec, torch, torch_dtype)))
        return values
    raise RunContractError("golden.py defines neither generate_inputs(params) nor build_tensor_specs()")


def output_names(module, values, entry) -> list[str]:
    declared = getattr(module, "__outputs__", None)
    if declared:
        names = [str(n) for n in declared]
    else:
        builder = getattr(module, "build_tensor_specs", None)
        names = []
        if callable(builder):
            try:
                names = [str(_spec_get(s, "name")) for s in _call_flexibly(builder, _params(module)) or []
                         if _spec_get(s, "is_output", False)]
            except Exception:  # noqa: BLE001 - __outputs__ is the documented way; this is a fallback
                names = []
    if not names:
        raise RunContractError("golden.py names no outputs: set __outputs__ = [\"out\", ...]")
    known = {n for n, _ in values}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise RunContractError(
            f"__outputs__ names {', '.join(repr(n) for n in unknown)}, which the inputs do not have "
            f"(inputs: {', '.join(n for n, _ in values)})")
    return names


# --------------------------------------------------------------------------------------------------
# Where an output is declared (for diagnostics)


def entry_location(obj, names: list[str]) -> dict:
    """The entry's source file and, per output, the line of its parameter."""
    import ast  # noqa: PLC0415
    import textwrap  # noqa: PLC0415

    func = getattr(obj, "_func", None) or obj
    where = {"file": "", "line": 0, "params": {}}
    try:
        code = func.__code__
        where["file"] = os.path.abspath(code.co_filename)
        where["line"] = code.co_firstlineno
        lines, start = inspect.getsourcelines(func)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except Exception:  # noqa: BLE001 - a @pl.program class or a C function: no per-parameter lines
        return where
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            for arg in arguments:
                if arg.arg in names:
                    where["params"][arg.arg] = start + arg.lineno - 1
            break
    return where
