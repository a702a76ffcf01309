"""port-check run mode: executes a compiled port on the simulator and compares it with its golden.

Called by port_check_adapter.py with `--mode run` once the program is found. The contract (what
golden.py provides, the result fields, the comparison semantics) is docs/run-stage.md. Like the
compile mode it never lets an exception escape: the caller writes the result in a `finally`.

Phases recorded in result["phase"], in order:
    inputs   generate_inputs() / build_tensor_specs() with the fixed seed
    compile  compile the entry for the simulator (pypto.ir.compile or JITFunction.compile)
    execute  run the compiled program on a2a3sim / a5sim through the PyPTO runtime
    golden   compute_golden() on a copy of the inputs
    compare  every output in __outputs__ against the golden
Statuses: ok (ran and compared; per-output verdicts in "outputs"), input_error and golden_error
(golden.py raised), contract_error (golden.py lacks what a run needs), compile_error, run_error
(the runtime raised), ptoas_missing (no kernel C++ can be produced).
"""

from __future__ import annotations

import inspect
import os
import random
import sys
import time
import traceback

RUN_SCHEMA = "port-check-run-result/1"
DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-5


class RunContractError(Exception):
    """golden.py does not provide what a run needs (no inputs, no golden function, unknown output)."""


def _type_name(exc_type: type) -> str:
    module = getattr(exc_type, "__module__", "") or ""
    name = getattr(exc_type, "__qualname__", exc_type.__name__)
    return name if module in ("builtins", "__main__") else f"{module}.{name}"


def _reuse_compiled(options, result: dict):
    """The compile stage's program, loaded from its output folder for this simulator (the generated code
    does not depend on device vs simulator, only the runtime build does), or None to compile here."""
    folder = getattr(options, "compiled_dir", None)
    if not folder or not os.path.isfile(os.path.join(folder, "compiled_meta.json")):
        return None
    try:
        import shutil  # noqa: PLC0415

        from pypto.ir.compiled_program import CompiledProgram  # noqa: PLC0415

        # A copy in the run's own folder: the runtime builds its binaries next to the program, and the
        # compile cache's entry stays as the compile stage left it.
        shutil.copytree(folder, options.out_dir, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("passes_dump", "report", "debug"))
        compiled = CompiledProgram.from_dir(options.out_dir, platform=options.platform)
    except BaseException as exc:  # noqa: BLE001 -- an unusable folder only costs the compile it would save
        result["reused_compile_error"] = f"{type(exc).__name__}: {exc}"
        return None
    result["reused_compile"] = folder
    return compiled


def _record_exception(result: dict, exc: BaseException, status: str) -> None:
    result["status"] = status
    result["exception_type"] = _type_name(type(exc))
    try:
        result["exception_message"] = str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__ must not lose the result
        result["exception_message"] = repr(exc)
    result["traceback"] = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    sys.stderr.write(result["traceback"])


# --------------------------------------------------------------------------------------------------
# Reading golden.py


def _params(module):
    cases = getattr(module, "ALL_CASES", None)
    default = getattr(module, "DEFAULT_CASE", None)
    if isinstance(cases, dict) and cases:
        return cases[default] if default in cases else next(iter(cases.values()))
    return {}


def _call_flexibly(fn, *args):
    """Calls fn with as many of `args` as its required positional parameters take."""
    try:
        required = [
            p for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        count = len(required)
    except (TypeError, ValueError):
        count = len(args)
    return fn(*args[: max(count, 0)]) if count <= len(args) else fn(*args)


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


def generate_named_inputs(module, params, torch, torch_dtype, scalar_value, result: dict):
    """[(name, value)] from generate_inputs(params), else from build_tensor_specs()."""
    inputs = getattr(module, "generate_inputs", None)
    if callable(inputs):
        result["inputs_source"] = "generate_inputs"
        produced = _call_flexibly(inputs, params)
        items = produced.items() if isinstance(produced, dict) else produced
        values = []
        for item in items or []:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise RunContractError(f"generate_inputs must return (name, value) pairs, got {item!r}")
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


# --------------------------------------------------------------------------------------------------
# Comparison (torch.allclose semantics, element by element)


def _float_or_none(value):
    value = float(value)
    if value != value or value in (float("inf"), float("-inf")):
        return None
    return value


def _index(flat: int, shape) -> list[int]:
    index = []
    for dim in reversed(list(shape)):
        index.append(int(flat % dim) if dim else 0)
        flat //= dim if dim else 1
    return list(reversed(index))


def compare_output(name: str, actual, expected, rtol: float, atol: float, torch) -> dict:
    """Everything the report says about one output. close(a, e) = |a - e| <= atol + rtol * |e|, NaN
    never close (torch.allclose with equal_nan=False)."""
    entry = {
        "name": name,
        "shape": [int(d) for d in actual.shape],
        "expected_shape": [int(d) for d in expected.shape],
        "dtype": str(actual.dtype).replace("torch.", ""),
        "rtol": rtol,
        "atol": atol,
    }
    if list(actual.shape) != list(expected.shape):
        entry.update(passed=False, verdict="shape_mismatch", elements=int(actual.numel()))
        return entry
    a = actual.detach().to("cpu").reshape(-1).to(torch.float64)
    e = expected.detach().to("cpu").reshape(-1).to(torch.float64)
    n = int(a.numel())
    entry["elements"] = n
    a_nan, e_nan = torch.isnan(a), torch.isnan(e)
    a_inf, e_inf = torch.isinf(a), torch.isinf(e)
    entry["nan_actual"] = int(a_nan.sum())
    entry["inf_actual"] = int(a_inf.sum())
    entry["nan_expected"] = int(e_nan.sum())
    entry["inf_expected"] = int(e_inf.sum())
    diff = (a - e).abs()
    close = diff <= (atol + rtol * e.abs())
    close = close | ((a == e) & a_inf & e_inf)  # equal infinities are close, as in torch.allclose
    close = close & ~a_nan & ~e_nan
    mismatched = ~close
    count = int(mismatched.sum())
    entry["mismatches"] = count
    entry["mismatch_share"] = (count / n) if n else 0.0
    finite = torch.isfinite(a) & torch.isfinite(e)
    if bool(finite.any()):
        fdiff = torch.where(finite, diff, torch.zeros_like(diff))
        worst = int(torch.argmax(fdiff))
        entry["max_abs_err"] = _float_or_none(fdiff[worst])
        entry["worst_index"] = _index(worst, actual.shape)
        entry["worst_actual"] = _float_or_none(a[worst])
        entry["worst_expected"] = _float_or_none(e[worst])
        nonzero = finite & (e != 0)
        if bool(nonzero.any()):
            rel = torch.where(nonzero, diff / e.abs().clamp_min(torch.finfo(torch.float64).tiny),
                              torch.zeros_like(diff))
            entry["max_rel_err"] = _float_or_none(rel.max())
        else:
            entry["max_rel_err"] = None
    else:
        entry["max_abs_err"] = None
        entry["max_rel_err"] = None
    if count:
        first = int(torch.nonzero(mismatched, as_tuple=False)[0][0])
        entry["first_mismatch"] = {
            "index": _index(first, actual.shape),
            "actual": _float_or_none(a[first]),
            "expected": _float_or_none(e[first]),
            "actual_text": repr(float(a[first])),
            "expected_text": repr(float(e[first])),
        }
    # NaN != 0, so an output full of NaN was written (badly), not left untouched.
    entry["nonzero_actual"] = int((a != 0).sum())
    entry["nonzero_expected"] = int((e != 0).sum())
    entry["zero_where_expected_nonzero"] = int(((a == 0) & (e != 0)).sum())
    entry["never_written"] = entry["nonzero_actual"] == 0 and entry["nonzero_expected"] > 0
    entry["passed"] = count == 0
    entry["verdict"] = "pass" if count == 0 else ("never_written" if entry["never_written"] else "mismatch")
    return entry


# --------------------------------------------------------------------------------------------------
# The run


def execute(options, result: dict, name: str, obj, kind: str, spec_module, helpers) -> int:
    """Inputs -> compile -> execute -> golden -> compare. `helpers` carries the compile adapter's
    functions (torch_dtype, scalar_value, compile_program, ptoas_binary, AdapterError)."""
    import torch  # noqa: PLC0415

    result["schema"] = RUN_SCHEMA
    result["mode"] = "run"
    result["torch_version"] = str(getattr(torch, "__version__", ""))
    seed = int(options.seed)
    result["seed"] = seed
    if spec_module is None:
        result["status"] = "contract_error"
        result["exception_message"] = "no golden.py: a run needs its inputs, outputs and golden function"
        return 1

    rtol, atol, tol_source = tolerances(spec_module)
    result.update(rtol=rtol, atol=atol, tolerance_source=tol_source)
    params = _params(spec_module)
    golden_name, golden_fn = golden_function(spec_module, name)

    # Inputs, with every random generator seeded.
    result["phase"] = "inputs"
    try:
        if golden_fn is None:
            raise RunContractError(
                f"golden.py defines no golden function (compute_golden(tensors, params) or golden_{name}(tensors))")
        _seed_everything(seed, torch)
        values = generate_named_inputs(spec_module, params, torch, helpers["torch_dtype"], helpers["scalar_value"],
                                       result)
        outputs = output_names(spec_module, values, obj)
        per_output = output_tolerances(spec_module, outputs, rtol, atol, tol_source)
    except RunContractError as exc:
        result["status"] = "contract_error"
        result["exception_type"] = "port-check.RunContractError"
        result["exception_message"] = str(exc)
        print(f"port-check run: {exc}", file=sys.stderr)
        return 1
    except BaseException as exc:  # noqa: BLE001
        _record_exception(result, exc, "input_error")
        result["golden_function"] = "generate_inputs" if hasattr(spec_module, "generate_inputs") else "build_tensor_specs"
        return 1
    result["golden_function"] = golden_name
    result["output_names"] = outputs
    result["entry_location"] = entry_location(obj, outputs)
    # The golden sees the inputs as generated, whatever the run does to them.
    golden_tensors = {n: (v.clone() if isinstance(v, torch.Tensor) else v) for n, v in values}

    args = [v for _, v in values]
    func = getattr(obj, "_func", None)
    if kind == "jit" and func is not None:
        param_names = list(inspect.signature(func).parameters)
        by_name = dict(values)
        if param_names and set(param_names) <= set(by_name):
            args = [by_name[p] for p in param_names]

    # The simulator runs kernel C++; without ptoas the compile stops at .pto files.
    ptoas = helpers["ptoas_binary"]()
    result["ptoas"] = "ran" if ptoas else "skipped"
    result["ptoas_path"] = ptoas or ""
    if not ptoas:
        result["status"] = "ptoas_missing"
        result["phase"] = "compile"
        result["exception_message"] = ("ptoas was not found (PTOAS_ROOT, PATH): the compile stops at .pto kernels "
                                       "and the simulator has no kernel C++ to build")
        print(f"port-check run: {result['exception_message']}", file=sys.stderr)
        return 1

    result["phase"] = "compile"
    started = time.monotonic()
    compiled = _reuse_compiled(options, result)
    if compiled is None:
        try:
            compiled = helpers["compile_program"](kind, obj, args, options.platform, options.out_dir, result)
        except BaseException as exc:  # noqa: BLE001
            _record_exception(result, exc, "compile_error")
            return 1
    result["seconds_compile"] = round(time.monotonic() - started, 3)

    result["phase"] = "execute"
    started = time.monotonic()
    try:
        from pypto.runtime import RunConfig  # noqa: PLC0415

        config = RunConfig(platform=options.platform, save_kernels=True, save_kernels_dir=options.out_dir)
        returned = compiled(*args, config=config)
    except BaseException as exc:  # noqa: BLE001
        _record_exception(result, exc, "run_error")
        return 1
    result["seconds_execute"] = round(time.monotonic() - started, 3)
    actual = dict(values)
    if isinstance(returned, torch.Tensor) and len(outputs) == 1:
        current = actual.get(outputs[0])
        if not isinstance(current, torch.Tensor) or returned.data_ptr() != current.data_ptr():
            actual[outputs[0]] = returned  # return-style call: the runtime allocated the output

    result["phase"] = "golden"
    try:
        _call_flexibly(golden_fn, golden_tensors, params)
    except BaseException as exc:  # noqa: BLE001
        _record_exception(result, exc, "golden_error")
        return 1

    result["phase"] = "compare"
    compared = []
    for out in outputs:
        got, want = actual[out], golden_tensors[out]
        out_rtol, out_atol, out_source = per_output[out]
        if not isinstance(got, torch.Tensor) or not isinstance(want, torch.Tensor):
            entry = {"name": out, "passed": False, "verdict": "not_a_tensor", "dtype": type(got).__name__,
                     "rtol": out_rtol, "atol": out_atol}
        else:
            entry = compare_output(out, got, want, out_rtol, out_atol, torch)
        entry["tolerance_source"] = out_source
        compared.append(entry)
    result["outputs"] = compared
    result["passed"] = all(o["passed"] for o in compared)
    for o in compared:
        print(f"[port-check run] '{o['name']}' {'PASS' if o['passed'] else 'FAIL'} "
              f"mismatches={o.get('mismatches', '-')}/{o.get('elements', '-')} max_abs_err={o.get('max_abs_err')}",
              file=sys.stderr)
    result["phase"] = "done"
    result["status"] = "ok"
    return 0 if result["passed"] else 1
