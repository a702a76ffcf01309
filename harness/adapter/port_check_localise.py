"""port-check run mode: the first wrong task of a failing case, and which side is wrong (docs/first-wrong-task.md).

When a case fails, the run stage runs it twice more:
    ir       the port's own IR, lowered to torch by PyPTO's torch_codegen (pypto.debug), called as the
             orchestration calls it; every top-level kernel call is recorded in order, with which
             elements of each output it changed. Its outputs are judged by the case's comparators.
    dump     the compiled program again on the simulator with the runtime's per-task argument dump
             (simpler's args dump, level 2: every task's tensors before dispatch and after completion),
             and each task's kernel replayed in torch on the task's own dumped inputs.
The verdict:
    port_bug       the IR run fails the golden too: the program computes the wrong thing. The first
                   wrong task is the earliest kernel call that wrote a wrong element of a failing
                   output (or none wrote it: the output region is never stored).
    toolchain      the IR run passes, and a task's simulated kernel differs from its torch replay on
                   the same inputs: the compiled kernel (ptoas, pto-isa, the kernel compiler or the
                   simulator) is wrong there, not the program.
    orchestration  the IR run passes and every task agrees with its replay, yet the outputs differ:
                   the order or dependencies of the tasks (orchestration, runtime) are at fault.
    undetermined   what could not be told, with why (no torch_codegen, a5sim's untrusted dumps, ...).
Nothing here raises: a step that fails is recorded in the result with its reason.
"""

from __future__ import annotations

import inspect
import mmap
import os
import re
import runpy
import shutil
import sys
import threading
import time

from port_check_compare import compare_with

# Per-task comparisons have no declared tolerance: a kernel and its torch replay differ by rounding
# (exp, division, reduction order), a broken kernel by far more. The port's own tolerance is used
# when it is looser.
TASK_TOLERANCE = {"float32": (1e-3, 1e-5), "float16": (1e-2, 1e-3), "bfloat16": (2e-2, 1e-2)}
DUMP_DTYPES = {"FLOAT32": "float32", "FLOAT16": "float16", "BFLOAT16": "bfloat16", "INT8": "int8",
               "UINT8": "uint8", "INT16": "int16", "INT32": "int32", "INT64": "int64", "BOOL": "bool",
               "UINT16": "int16", "UINT32": "int32", "UINT64": "int64"}
# simpler#1560: on a5 / a5sim the dump's tensor payload is not trusted.
UNTRUSTED_DUMP = {"a5sim": "simpler#1560: a5sim's per-task tensor dumps are not trusted; run the case with "
                           "--platform a2a3sim to find the task"}


def _note(result: dict, text: str) -> None:
    result.setdefault("notes", []).append(text)


# ---- the IR in torch

class _Program:
    """The port's IR as torch code: its namespace, orchestration entry, kernel functions and spans."""

    def __init__(self, compiled, lower=None):
        import importlib  # noqa: PLC0415

        import torch  # noqa: PLC0415

        codegen = importlib.import_module("pypto.debug.torch_codegen")  # the module (the package exports the function)

        import port_check_torch_ops  # noqa: PLC0415

        # A program reloaded from the compile stage's folder carries no IR: lower the entry again (passes
        # only, no codegen).
        # The entry lowered again (passes only) first: compiled.program can hold a later form of the IR that
        # torch_codegen lowers wrongly (a mixed kernel's loop index lost).
        program = None
        if lower is not None:
            try:
                program = lower()
            except Exception:  # noqa: BLE001 - the compiled program's IR is the fallback
                program = None
        if program is None:
            program = getattr(compiled, "program", None)
        if program is None:
            raise RuntimeError("the compiled program carries no IR and the entry cannot be lowered again")
        self.functions = {f.name: f for f in program.functions.values()}
        entries = [n for n, f in self.functions.items() if str(f.func_type).endswith("Orchestration")]
        if len(entries) != 1:
            raise RuntimeError(f"the program has {len(entries)} orchestration functions; one is needed")
        self.entry = entries[0]
        self.added_ops = port_check_torch_ops.register(codegen)
        source = codegen.torch_codegen(program)
        self.namespace: dict = {"__name__": "port_check_torch_codegen", **port_check_torch_ops.helpers(torch)}
        exec(compile(source, "<torch_codegen>", "exec"), self.namespace)  # noqa: S102 - PyPTO's own codegen
        # Each SPMD function runs its kernel once per block of its dispatch (torch_codegen runs it once,
        # as block 0); one whose block count is known only at run time stays as generated.
        blocks = port_check_torch_ops.spmd_blocks(str(program))
        self.spmd_unlooped = []
        for name, function in self.functions.items():
            if not str(function.func_type).endswith("Spmd") or name not in self.namespace:
                continue
            if name in blocks:
                self.namespace[name] = self.namespace["_port_check_for_each_block"](self.namespace[name], blocks[name])
            else:
                self.spmd_unlooped.append(name)
        # Kernels that read their block index: a task of the dump is one block of a dispatch, and which
        # block is not in the dump, so such a task is not replayed on its own.
        self.block_indexed = {chunk.split("(", 1)[0] for chunk in re.split(r"(?m)^def ", source)[1:]
                              if "_port_check_block_idx()" in chunk}
        self.kernels = [n for n, f in self.functions.items()
                        if n != self.entry and n in self.namespace and not str(f.func_type).endswith("Orchestration")]
        self.groups = dict(self.namespace.get("_GROUP_META", {}))

    def param_names(self, kernel: str) -> list[str]:
        function = self.functions.get(kernel)
        # The passes rename parameters (r0 -> r0__ssa_v0, qb -> qb__idx_v0, row0 -> row0_inline0__ssa_v0):
        # the source's names are wanted.
        names = []
        for p in getattr(function, "params", []):
            name = re.sub(r"__(ssa|idx|iter)_v\d+$", "", getattr(p, "name_hint", None) or str(p))
            names.append(re.sub(r"_inline\d+$", "", name).lstrip("_") or name)
        return names

    def param_kinds(self, kernel: str) -> list[str] | None:
        """"tensor" / "scalar" per parameter of the kernel (or group), None when unknown."""
        function = self.functions.get(kernel)
        if function is None:
            return None
        return ["tensor" if "Tensor" in type(getattr(p, "type", None)).__name__ else "scalar"
                for p in getattr(function, "params", [])]

    def named(self, kernel: str, values: dict) -> dict:
        """{arg index: value} keyed by the kernel's param names where known."""
        names = self.param_names(kernel)
        return {(names[int(i)] if int(i) < len(names) else str(i)): v for i, v in values.items()}

    def location(self, kernel: str, param_index=None) -> dict:
        """The kernel's source file and the line of its store to the param (else its def line)."""
        function = self.functions.get(kernel)
        span = getattr(function, "span", None)
        if span is None or not span.is_valid():
            return {}
        where = {"file": span.filename, "line": int(span.begin_line)}
        names = self.param_names(kernel)
        wanted = names[param_index] if param_index is not None and param_index < len(names) else None
        if wanted:
            where["param"] = wanted
            line = _store_line(span.filename, int(span.begin_line), wanted)
            if line:
                where["line"] = line
        return where


def _store_line(path: str, begin: int, param: str):
    """The first line of the function starting at `begin` that stores into `param`."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    start = begin - 1
    while start < len(lines) and not lines[start].lstrip().startswith("def "):
        start += 1
    if start >= len(lines):
        return None
    indent = len(lines[start]) - len(lines[start].lstrip())
    for number in range(start + 1, len(lines)):
        text = lines[number]
        stripped = text.lstrip()
        if stripped and len(text) - len(stripped) <= indent and not stripped.startswith((")", "#")):
            break
        if ("store(" in text or "assemble(" in text) and re.search(rf"\b{re.escape(param)}\b", text):
            return number + 1
    return None


class _Recorder:
    """Wraps every kernel of the namespace: records each call the orchestration makes (name, scalar
    arguments) and, for the watched output tensors, which call last changed each element."""

    def __init__(self, program: _Program, watched: dict, torch):
        self.program, self.watched, self.torch = program, watched, torch
        self.calls: list[dict] = []
        self.current = None  # (kernel, args) of the call running now: its stores happen on worker threads too
        self.writers = {name: torch.full(t.shape, -1, dtype=torch.int64) for name, t in watched.items()}
        self.depth = threading.local()
        namespace = program.namespace
        for name in program.kernels:
            namespace[name] = self._wrap(name, namespace[name])
        if "_run_group_call" in namespace:
            inner = namespace["_run_group_call"]
            namespace["_run_group_call"] = lambda group, *args: self._call(group, lambda *a: inner(group, *a), args)

    def _wrap(self, name, function):
        return lambda *args: self._call(name, function, args)

    def _call(self, name, function, args):
        torch = self.torch
        if getattr(self.depth, "inside", False) or threading.current_thread() is not threading.main_thread():
            return function(*args)
        hits, slots = [], {}
        for out, tensor in self.watched.items():
            for slot, value in enumerate(args):
                if isinstance(value, torch.Tensor) and value.data_ptr() == tensor.data_ptr():
                    hits.append((out, tensor.clone()))
                    slots[out] = slot
                    break
        self.depth.inside = True
        self.current = (name, args)
        try:
            returned = function(*args)
        finally:
            self.depth.inside = False
            self.current = None
        index = len(self.calls)
        scalars = {str(i): _scalar(v) for i, v in enumerate(args) if not isinstance(v, torch.Tensor)}
        self.calls.append({"kernel": name, "scalars": scalars, "slots": slots})
        for out, before in hits:
            after = self.watched[out]
            changed = (after != before) & ~(after.isnan() & before.isnan()) if after.dtype.is_floating_point \
                else after != before
            self.writers[out][changed] = index
        return returned


def _scalar(value):
    try:
        return value.item() if hasattr(value, "item") else (value if isinstance(value, (int, float, bool)) else
                                                               str(value))
    except Exception:  # noqa: BLE001
        return str(value)


def _run_ir(program: _Program, inputs: list, outputs: list[str], torch):
    """(outputs of the IR run, recorder) for the inputs as generated."""
    values = [(n, v.clone() if isinstance(v, torch.Tensor) else v) for n, v in inputs]
    named = dict(values)
    watched = {o: named[o] for o in outputs if isinstance(named.get(o), torch.Tensor)}
    recorder = _Recorder(program, watched, torch)
    returned = program.namespace[program.entry](*[v for _, v in values])
    got = dict(watched)
    if isinstance(returned, torch.Tensor):
        returned = (returned,)
    if isinstance(returned, (tuple, list)):
        tensors = [r for r in returned if isinstance(r, torch.Tensor)]
        if len(tensors) == len(outputs):
            for out, tensor in zip(outputs, tensors):
                got[out] = tensor
    return got, recorder


# ---- stores past a tensor's end (GOLD023 from the IR)

def _guard_stores(program: _Program, recorder: _Recorder, torch) -> list[dict]:
    """Wraps the script's _tile_store: a store whose tile (its valid region) reaches past the tensor is
    recorded, and stored clipped so the run goes on. Returns the list the records go to."""
    found: list[dict] = []
    inner = program.namespace["_tile_store"]

    def store(tile, offsets, output_tensor, atomic=0):
        offs = [int(o) for o in offsets]
        valid = [int(v) for v in getattr(tile, "_pypto_valid_shape", tuple(tile.shape))]
        shape = list(output_tensor.shape)
        if len(offs) == len(valid) == len(shape) and any(o < 0 or o + v > n for o, v, n in zip(offs, valid, shape)):
            fit = [max(0, min(v, n - o)) for o, v, n in zip(offs, valid, shape)]
            elements = 1
            kept = 1
            for v, f in zip(valid, fit):
                elements *= v
                kept *= f
            kernel, args = recorder.current or (None, ())
            slot = next((i for i, a in enumerate(args) if isinstance(a, torch.Tensor)
                         and a.data_ptr() == output_tensor.data_ptr() and tuple(a.shape) == tuple(shape)), None)
            output = next((o for o, t in recorder.watched.items() if t.data_ptr() == output_tensor.data_ptr()), None)
            found.append({"kernel": kernel, "slot": slot, "output": output, "offsets": offs, "tile": valid,
                          "shape": shape, "elements_past": elements - kept,
                          "bytes_past": (elements - kept) * output_tensor.element_size(),
                          "side": "before" if any(o < 0 for o in offs) else "after"})
            if kept == 0:
                return output_tensor
            clipped = tile[tuple(slice(0, f) for f in fit)]
            clipped._pypto_valid_shape = tuple(fit)
            return inner(clipped, [max(0, o) for o in offs], output_tensor, atomic)
        return inner(tile, offsets, output_tensor, atomic)

    program.namespace["_tile_store"] = store
    return found


def ir_overruns(compiled, inputs: list, outputs: list[str], label: str, torch, lower=None) -> tuple[list[dict], list[str]]:
    """(GOLD023 findings, notes): the stores of the port's IR, run in torch on a case's inputs, whose tile
    reaches past the tensor it is stored into (the simulator's runtime copies each tensor into a buffer of
    its exact size, so the bytes past it are never seen on the host: docs/contract.md section 5)."""
    try:
        program = _Program(compiled, lower)
        values = [(n, v.clone() if isinstance(v, torch.Tensor) else v) for n, v in inputs]
        named = dict(values)
        recorder = _Recorder(program, {o: named[o] for o in outputs if isinstance(named.get(o), torch.Tensor)}, torch)
        found = _guard_stores(program, recorder, torch)
        program.namespace[program.entry](*[v for _, v in values])
    except Exception as exc:  # noqa: BLE001 - nothing known: say why
        return [], [f"stores past a tensor's end not checked: the IR's torch run failed ({type(exc).__name__}: {exc})"]
    findings: dict[tuple, dict] = {}
    for f in found:
        names = program.param_names(f["kernel"]) if f["kernel"] else []
        tensor = f["output"] or (names[f["slot"]] if f["slot"] is not None and f["slot"] < len(names) else "?")
        key = (tensor, f["side"], f["kernel"])
        if key not in findings:
            where = program.location(f["kernel"], f["slot"]) if f["kernel"] else {}
            findings[key] = {"rule": "GOLD023", "tensor": tensor, "side": f["side"], "bytes_changed": 0,
                             "first_offset": 0, "cases": [label], "source": "ir", "kernel": f["kernel"],
                             "stores": 0, "file": where.get("file"), "line": where.get("line"),
                             "example": {"offsets": f["offsets"], "tile": f["tile"], "shape": f["shape"]}}
        findings[key]["bytes_changed"] += f["bytes_past"]
        findings[key]["stores"] += 1
    return list(findings.values()), []


# ---- the simulator's per-task dump

def _dump_run(compiled, inputs: list, platform: str, folder: str, torch):
    """Runs the compiled program with the full args dump; returns the args_dump folder."""
    from pypto.runtime import RunConfig  # noqa: PLC0415

    dump = os.path.join(folder, "dfx_outputs", "args_dump")
    shutil.rmtree(dump, ignore_errors=True)
    values = [v.clone() if isinstance(v, torch.Tensor) else v for _, v in inputs]
    config = RunConfig(platform=platform, save_kernels=True, save_kernels_dir=folder, enable_dump_args=2)
    compiled(*values, config=config)
    if not os.path.isfile(os.path.join(dump, "args_dump.json")):
        raise RuntimeError(f"the runtime wrote no args_dump.json under {dump}")
    return dump


def _kernel_names(folder: str) -> tuple[dict, dict]:
    """(func_id -> kernel name, kernel name -> core type aic/aiv), from the compile's kernel_config.py."""
    config = runpy.run_path(os.path.join(folder, "kernel_config.py"))
    kernels = config.get("KERNELS", [])
    return ({int(k["func_id"]): str(k["name"]) for k in kernels},
            {str(k["name"]): str(k.get("core_type", "")) for k in kernels})


def self_test_for(cores: list[str], dtype: str) -> str:
    """The `port-check doctor --run` self-test (docs/doctor.md) that exercises this kind of kernel."""
    if "aic" in cores and "aiv" in cores:
        return "mixed_bf16"
    family = "cube" if "aic" in cores else "vector"
    if dtype == "int8" and family == "vector":
        return "vector_int8"
    return f"{family}_{'bf16' if dtype in ('bfloat16', 'float16') else 'fp32'}"


class _Dump:
    def __init__(self, folder: str, torch):
        import json  # noqa: PLC0415

        with open(os.path.join(folder, "args_dump.json"), encoding="utf-8") as handle:
            manifest = json.load(handle)
        self.torch = torch
        self.truncated = sum(1 for a in manifest["args"] if a.get("truncated") or a.get("overwritten"))
        self.dropped = int(manifest.get("dropped_records", 0) or 0) + int(manifest.get("dropped_overwrite", 0) or 0)
        tasks: dict[int, dict] = {}
        for arg in manifest["args"]:
            task = tasks.setdefault(int(arg["task_id"], 16), {"task_id": arg["task_id"], "func_id": arg["func_id"],
                                                               "before": {}, "after": {}})
            stage = "before" if arg["stage"] == "before_dispatch" else "after"
            task[stage][int(arg["arg_index"])] = arg
        self.tasks = [tasks[k] for k in sorted(tasks)]
        bin_file = manifest.get("bin_file")
        self._handle = open(os.path.join(folder, bin_file), "rb") if bin_file else None  # noqa: SIM115
        self._map = mmap.mmap(self._handle.fileno(), 0, access=mmap.ACCESS_READ) \
            if self._handle and os.path.getsize(os.path.join(folder, bin_file)) else None

    def close(self):
        if self._map is not None:
            self._map.close()
        if self._handle is not None:
            self._handle.close()

    def value(self, record: dict):
        torch = self.torch
        if record["kind"] != "tensor":
            return record.get("value")
        dtype = getattr(torch, DUMP_DTYPES.get(record["dtype"], ""), None)
        if dtype is None:
            raise RuntimeError(f"dump dtype {record['dtype']} is not known")
        size = int(record["bin_size"])
        if self._map is None or size == 0:
            raise RuntimeError("the dump has no payload for a tensor")
        raw = bytearray(self._map[int(record["bin_offset"]):int(record["bin_offset"]) + size])
        return torch.frombuffer(raw, dtype=dtype).reshape(record["shape"]).clone()


def _close(got, want, rtol: float, atol: float, torch, steps: int = 0):
    """Element by element: floating values within (rtol, atol) (NaN matching NaN), integers at most
    `steps` apart."""
    if got.dtype.is_floating_point or want.dtype.is_floating_point:
        return torch.isclose(got.double(), want.double(), rtol=rtol, atol=atol, equal_nan=True)
    return (got.long() - want.long()).abs() <= steps


def _tolerance(comparators: dict, name: str) -> tuple[float, float]:
    comparator = comparators.get(name, {})
    return comparator.get("rtol", 1e-5), comparator.get("atol", 1e-8)


def _differs(got, want, rtol: float, atol: float, torch) -> dict | None:
    """None when the two agree; else the mismatch figures."""
    if tuple(got.shape) != tuple(want.shape):
        return {"mismatches": None, "elements": int(want.numel()), "detail": f"shape {list(got.shape)} "
                                                                            f"vs {list(want.shape)}"}
    bad = ~_close(got, want, rtol, atol, torch, steps=int(atol))
    count = int(bad.sum())
    if count == 0:
        return None
    first = [int(i) for i in bad.nonzero()[0]]
    a, e = (got.double(), want.double()) if got.dtype.is_floating_point else (got.long(), want.long())
    diff = (a - e).abs()
    diff = diff[~diff.isnan()] if diff.dtype.is_floating_point else diff
    return {"mismatches": count, "elements": int(want.numel()), "first_index": first,
            "max_abs_err": float(diff.max()) if diff.numel() else None,
            "sim": float(a[tuple(first)]), "replay": float(e[tuple(first)])}


def _replay(program: _Program, dump: _Dump, names: dict, cores: dict, comparators: dict, torch):
    """(the first task whose simulated outputs differ from its kernel's torch replay, tasks compared,
    tasks not replayed)."""
    group_of = {(m.get("aic"), m.get("aiv")): g for g, m in program.groups.items()}
    loosest = max([c.get("rtol", 0.0) for c in comparators.values()] + [0.0])
    loosest_atol = max([c.get("atol", 0.0) for c in comparators.values()] + [0.0])
    compared = skipped = 0
    for position, task in enumerate(dump.tasks):
        ids = [int(i) for i in task["func_id"]]
        kernels = [names.get(i, f"func{i}") for i in ids]
        if len(kernels) == 1:
            label, function = kernels[0], program.namespace.get(kernels[0])
        else:
            aic = next((k for k in kernels if k.endswith("_aic")), None)
            aiv = next((k for k in kernels if k.endswith("_aiv")), None)
            label = group_of.get((aic, aiv)) or (aic or kernels[0]).rsplit("_", 1)[0]
            call = program.namespace.get("_run_group_call")
            function = (lambda *a, _g=label, _c=call: _c(_g, *a)) if call else None
        if function is None or any(k in program.block_indexed for k in kernels):
            skipped += 1
            continue
        indices = sorted(set(task["before"]) | set(task["after"]))
        name = label if len(kernels) > 1 else kernels[0]
        order = _argument_order(task, indices, program.param_kinds(name), _arity(program.namespace.get(name)))
        if order is None:
            # The runtime's arguments do not fit the IR kernel's parameters (counts differ): which is which
            # cannot be told from the dump, so the task is not replayed.
            skipped += 1
            continue
        values = {}
        for index in indices:
            record = task["before"].get(index)
            if record is None:  # output-only: the kernel writes it whole; start from zeros
                values[index] = torch.zeros_like(dump.value(task["after"][index]))
            else:
                values[index] = dump.value(record)
        args = [values[index] for index in order]
        try:
            function(*args)
        except Exception as exc:  # noqa: BLE001 - a replay that cannot run says nothing about the kernel
            raise RuntimeError(f"the torch replay of task {task['task_id']} ({label}) raised "
                               f"{type(exc).__name__}: {exc}") from None
        compared += 1
        for slot, index in enumerate(order):
            record = task["after"].get(index)
            if record is None or record["kind"] != "tensor":
                continue
            simulated = dump.value(record)
            rtol, atol = TASK_TOLERANCE.get(str(simulated.dtype).replace("torch.", ""), (0.0, 0.0))
            found = _differs(simulated, args[slot], max(rtol, loosest), max(atol, loosest_atol), torch)
            if found is not None:
                kernel = kernels[0] if len(kernels) == 1 else label
                dtype = str(simulated.dtype).replace("torch.", "")
                core_types = [cores.get(k, "") for k in kernels]
                scalars = {slot_of: task["before"][i].get("value") for slot_of, i in enumerate(order)
                           if i in task["before"] and task["before"][i]["kind"] == "scalar"}
                return {"task_id": task["task_id"], "index": position, "kernel": kernel, "kernels": kernels,
                        "core_types": core_types, "self_test": self_test_for(core_types, dtype),
                        "arg_index": index, "dtype": dtype, "scalars": program.named(kernel, scalars),
                        **found, **program.location(kernel if len(kernels) == 1 else (aiv or kernel), slot)}, \
                    compared, skipped
    return None, compared, skipped


def _argument_order(task: dict, indices: list, kinds, arity):
    """The dump's argument indices in the order of the kernel's parameters, or None when they do not fit.
    The runtime passes a task's tensors first and its scalars after them (a mixed kernel's GM pipe buffer
    among the tensors); the IR kernel may interleave them: tensors go to tensor parameters in order,
    scalars to scalar parameters."""
    def kind(index):
        record = task["before"].get(index) or task["after"].get(index)
        return record["kind"]
    if kinds:
        tensors = [i for i in indices if kind(i) == "tensor"]
        scalars = [i for i in indices if kind(i) != "tensor"]
        if kinds.count("tensor") != len(tensors) or kinds.count("scalar") != len(scalars):
            return None
        pick = {"tensor": iter(tensors), "scalar": iter(scalars)}
        return [next(pick[k]) for k in kinds]
    if arity is not None and arity != len(indices):
        return None
    return list(indices)


def _arity(function):
    """The number of positional parameters of a torch_codegen function, None when it cannot be told."""
    if function is None:
        return None
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_POSITIONAL for p in parameters):
        return None
    return sum(1 for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


# ---- the verdict

def _first_writer(recorder: _Recorder, ir_outputs: dict, expected: dict, comparators: dict, torch) -> dict | None:
    """The earliest call that wrote a wrong element of a failing output in the IR run."""
    best = None
    for out, got in ir_outputs.items():
        want = expected.get(out)
        if not isinstance(want, torch.Tensor) or out not in recorder.writers:
            continue
        bad = ~_close(got, want, *_tolerance(comparators, out), torch)
        if not bool(bad.any()):
            continue
        writers = recorder.writers[out][bad]
        written = writers[writers >= 0]
        unwritten = int((writers < 0).sum())
        first_index = [int(i) for i in bad.nonzero()[0]]
        if written.numel():
            call = int(written.min())
            candidate = {"output": out, "call": call, "mismatches": int(bad.sum()), "never_written": unwritten,
                         "first_index": first_index}
        else:
            candidate = {"output": out, "call": None, "mismatches": int(bad.sum()), "never_written": unwritten,
                         "first_index": first_index}
        if best is None or (candidate["call"] is not None and (best["call"] is None or candidate["call"] < best["call"])):
            best = candidate
    return best


# A simulated output whose elements differ from the IR run's on more than this share is not the IR's.
APART_SHARE = 0.01


def _apart(simulated: dict, ir_outputs: dict, comparators: dict, torch) -> list[dict]:
    """The outputs on which the simulator and the IR run disagree on more than APART_SHARE of the elements
    (judged with each output's own tolerance)."""
    apart = []
    for name, got in simulated.items():
        mine = ir_outputs.get(name)
        if not isinstance(got, torch.Tensor) or not isinstance(mine, torch.Tensor) or got.shape != mine.shape:
            continue
        rtol, atol = _tolerance(comparators, name)
        close = _close(got, mine, rtol, atol, torch, steps=max(1, int(atol)))
        share = int((~close).sum()) / close.numel() if close.numel() else 0.0
        if share > APART_SHARE:
            apart.append({"name": name, "share": round(share, 6)})
    return apart


def localise(compiled, inputs: list, expected: dict, outputs: list[str], comparators: dict, platform: str,
             folder: str, label: str, torch, lower=None, simulated=None) -> dict:
    """The localisation of one failing case run (see the module doc). `inputs` are the case's inputs as
    generated, `expected` the golden's outputs, `lower()` the entry's post-pass IR when `compiled` lacks it.
    Never raises: a failure is the result's note."""
    started = time.monotonic()
    result: dict = {"case": label, "platform": platform, "verdict": "undetermined", "ir": None,
                    "first_wrong_task": None, "tasks": None, "tasks_compared": 0}
    try:
        _localise(result, compiled, inputs, expected, outputs, comparators, platform, folder, torch, lower,
                  simulated or {})
    except Exception as exc:  # noqa: BLE001
        _note(result, f"localisation failed: {type(exc).__name__}: {exc}")
    result["seconds"] = round(time.monotonic() - started, 3)
    print(f"[port-check run] localised {label}: {result['verdict']}"
          + (f", first wrong task {result['first_wrong_task'].get('kernel')}" if result["first_wrong_task"] else ""),
          file=sys.stderr)
    return result


def _localise(result: dict, compiled, inputs: list, expected: dict, outputs: list[str], comparators: dict,
              platform: str, folder: str, torch, lower, simulated: dict) -> None:
    """Fills `result` (see localise)."""
    try:
        program = _Program(compiled, lower)
    except Exception as exc:  # noqa: BLE001
        _note(result, f"the IR could not be lowered to torch (pypto.debug.torch_codegen): {type(exc).__name__}: {exc}")
        return
    ir_passed = None
    try:
        ir_outputs, recorder = _run_ir(program, inputs, outputs, torch)
        entries = [compare_with(o, ir_outputs[o], expected[o], comparators[o], torch) for o in outputs
                   if isinstance(ir_outputs.get(o), torch.Tensor) and isinstance(expected.get(o), torch.Tensor)]
        ir_passed = bool(entries) and all(e["passed"] for e in entries)
        result["ir"] = {"passed": ir_passed, "calls": len(recorder.calls),
                        "outputs": [{k: e.get(k) for k in ("name", "passed", "mismatches", "elements", "max_abs_err")}
                                    for e in entries]}
    except Exception as exc:  # noqa: BLE001
        result["ir"] = {"passed": None, "error": f"{type(exc).__name__}: {exc}"}
        _note(result, f"the IR's torch run raised {type(exc).__name__}: {exc}")
        recorder = None
    if ir_passed is False and simulated:
        # The IR misses the golden too; but when the simulator's outputs are not the IR's (torch rounds BF16
        # matmuls and casts its own way, so an IR run can miss a strict golden by a few elements while a
        # broken kernel misses it everywhere), the simulated program is not the IR's: look at the tasks.
        apart = _apart(simulated, ir_outputs, comparators, torch)
        result["ir"]["simulated_apart"] = apart
        if apart:
            worst = max(apart, key=lambda a: a["share"])
            _note(result, f"the IR's torch run misses the golden too, but the simulated '{worst['name']}' differs "
                          f"from the IR's on {worst['share']:.1%} of its elements: the simulated program is "
                          "not its IR, so the tasks were compared")
            ir_passed = None
    if ir_passed is False:
        result["verdict"] = "port_bug"
        first = _first_writer(recorder, ir_outputs, expected, comparators, torch)
        if first is not None and first["call"] is not None:
            call = recorder.calls[first["call"]]
            result["first_wrong_task"] = {"index": first["call"], "kernel": call["kernel"],
                                          "scalars": program.named(call["kernel"], call["scalars"]),
                                          "output": first["output"], "mismatches": first["mismatches"],
                                          "first_index": first["first_index"], "never_written": first["never_written"],
                                          **program.location(call["kernel"], call["slots"].get(first["output"]))}
        elif first is not None:
            result["first_wrong_task"] = {"index": None, "kernel": None, "output": first["output"],
                                          "mismatches": first["mismatches"], "never_written": first["never_written"],
                                          "first_index": first["first_index"]}
            _note(result, f"no task writes the wrong elements of '{first['output']}': the program never stores them")
        result["tasks"] = len(recorder.calls)
        return
    if platform in UNTRUSTED_DUMP:
        if ir_passed or (result["ir"] and result["ir"].get("simulated_apart")):
            result["verdict"] = "toolchain"
        _note(result, UNTRUSTED_DUMP[platform])
        return
    dump = None
    try:
        dump_folder = _dump_run(compiled, inputs, platform, folder, torch)
        dump = _Dump(dump_folder, torch)
        result["tasks"] = len(dump.tasks)
        if dump.truncated or dump.dropped:
            _note(result, f"the dump lost records ({dump.truncated} truncated, {dump.dropped} dropped): "
                          "tasks past them are not compared")
        names, cores = _kernel_names(folder)
        first, result["tasks_compared"], skipped = _replay(program, dump, names, cores, comparators, torch)
        if skipped:
            _note(result, f"{skipped} of {len(dump.tasks)} tasks were not replayed: their runtime arguments (a "
                          "mixed kernel's GM pipe buffer, inlined scalars) do not match the kernel's parameters")
        near = bool(result["ir"] and result["ir"].get("simulated_apart"))
        if first is not None:
            result["first_wrong_task"] = first
            result["verdict"] = "toolchain" if ir_passed or near else "undetermined"
        elif ir_passed and not skipped:
            result["verdict"] = "orchestration"
        elif ir_passed:
            result["verdict"] = "toolchain"  # the IR is right; the task at fault is among those not replayed
    except Exception as exc:  # noqa: BLE001
        _note(result, f"the per-task dump could not be compared: {type(exc).__name__}: {exc}")
        if ir_passed:
            result["verdict"] = "toolchain"
    finally:
        if dump is not None:
            dump.close()
        shutil.rmtree(os.path.join(folder, "dfx_outputs"), ignore_errors=True)  # hundreds of MB: never kept
