"""port-check run mode: executes a compiled port on the simulator and compares it with its golden.

Called by port_check_adapter.py with `--mode run` once the program is found. The contract (what
golden.py provides, the result fields, the comparison semantics) is docs/run-stage.md; a golden.py
with a CONTRACT runs every case of it under every seed (docs/contract.md): port_check_contract.py
reads and expands it, port_check_compare.py judges the outputs and looks for gamed goldens,
port_check_guard.py places the outputs between guard zones, port_check_golden.py reads golden.py. Like the compile mode it never lets an
exception escape: the caller writes the result in a `finally`.

Phases recorded in result["phase"], in order (per case run, with a CONTRACT):
    inputs   generate_inputs() / build_tensor_specs() with the seed (or a frozen golden's inputs)
    compile  compile the entry for the simulator (pypto.ir.compile or JITFunction.compile), once per shape
    execute  run the compiled program on a2a3sim / a5sim through the PyPTO runtime
    golden   compute_golden() on a copy of the inputs (not for a replayed frozen golden)
    compare  every output in __outputs__ against the golden
    localise the first failing case run only: its first wrong task (port_check_localise.py)
Statuses: ok (ran and compared; per-output verdicts in "outputs"), input_error and golden_error
(golden.py raised), contract_error (golden.py lacks what a run needs, or its CONTRACT is not one),
compile_error, run_error (the runtime raised), ptoas_missing (no kernel C++ can be produced).
"""

from __future__ import annotations

import hashlib
import inspect
import os
import sys
import time
import traceback

import port_check_guard
import port_check_localise
from port_check_compare import compare_with, gaming_findings, json_safe, tensor_facts
from port_check_contract import RunContractError, check_compare_names, expand, frozen_key, frozen_load, \
    frozen_save, key_sources, params_json, read_contract
from port_check_golden import _call_flexibly, _params, _seed_everything, entry_location, generate_named_inputs, \
    golden_function, output_names, output_tolerances, tolerances

RUN_SCHEMA = "port-check-run-result/1"


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
# The run: one case run (inputs -> compile -> execute -> golden -> compare), once or per contract case


class CaseFailed(Exception):
    """A case run stopped before its comparison; result["status"] says why."""


def _contract_failed(result: dict, exc: "RunContractError"):
    """golden.py cannot drive the case: contract_error in the result, and the contract stops."""
    result["status"] = "contract_error"
    result["exception_type"] = "port-check.RunContractError"
    result["exception_message"] = str(exc)
    print(f"port-check run: {exc}", file=sys.stderr)
    raise CaseFailed from None


def _signature(args, torch):
    """What a JIT compile specialises on: each argument's shape and dtype (scalars: their type)."""
    if args is None:
        return None
    return tuple(("tensor", tuple(int(d) for d in a.shape), str(a.dtype)) if isinstance(a, torch.Tensor)
                 else ("scalar", type(a).__name__) for a in args)


def _inputs_digest(values, outputs, torch) -> str:
    digest = hashlib.sha256()
    for name, value in values:
        if name in outputs:
            continue
        text = tensor_facts(value, torch)["digest"] if isinstance(value, torch.Tensor) else repr(value)
        digest.update(f"{name}\0{text}\0".encode())
    return digest.hexdigest()


class _Session:
    """What the case runs of one port share: golden.py's functions, the outputs and their comparators,
    the programs compiled so far (by argument signature) and the times."""

    def __init__(self, options, result, name, obj, kind, module, helpers, torch, contract=None):
        self.options, self.result, self.name, self.obj, self.kind = options, result, name, obj, kind
        self.module, self.helpers, self.torch, self.contract = module, helpers, torch, contract
        self.rtol, self.atol, self.tol_source = tolerances(module)
        self.golden_name, self.golden_fn = golden_function(module, name)
        self.outputs = None
        self.comparators = {}
        self.programs = {}  # signature -> (compiled, folder)
        self.tried_reuse = False
        self.folders = 0
        self.compiles = 0
        self.ptoas_checked = False
        self.seconds_compile = self.seconds_execute = 0.0
        self.guard = contract is not None and not getattr(options, "no_guard", False)
        self.frozen_dir = getattr(options, "frozen_dir", None) if contract is not None else None
        self.localise = not getattr(options, "no_localise", False)  # the first failing case run, once
        self.stores_checked = False  # the IR's stores against their tensors' bounds (GOLD023), once
        self.lowered = {}  # signature -> the entry's post-pass IR (see _lower)
        self.sources = []
        if self.frozen_dir:
            project = getattr(options, "project", None)
            original = os.path.join(os.path.dirname(os.path.abspath(project)), "original") if project else None
            self.sources = key_sources(getattr(module, "__file__", None), original)

    # ---- golden.py's side

    def _outputs_from(self, values):
        """The outputs and their comparators, the first time inputs exist; later cases must have them too."""
        names = output_names(self.module, values, self.obj)
        if self.outputs is not None:
            return
        per_output = output_tolerances(self.module, names, self.rtol, self.atol, self.tol_source)
        if self.contract is not None:
            check_compare_names(self.contract, names)
        for out in names:
            rtol, atol, source = per_output[out]
            spec = dict(self.contract.compare.get(out, {})) if self.contract is not None else {}
            comparator = {"comparator": spec.pop("comparator", "allclose"), "rtol": rtol, "atol": atol,
                          "tolerance_source": source, "comparator_source": "CONTRACT" if spec else "tolerances"}
            for key, value in spec.items():
                if value is not None:
                    comparator[key] = value
            if spec.get("rtol") is not None or spec.get("atol") is not None:
                comparator["tolerance_source"] = "golden.py"  # the CONTRACT's pair (comparator_source says so)
            self.comparators[out] = comparator
        self.outputs = names
        self.result["golden_function"] = self.golden_name
        self.result["output_names"] = names
        self.result["entry_location"] = entry_location(self.obj, names)

    def _generate(self, params, seed):
        if self.golden_fn is None:
            raise RunContractError(f"golden.py defines no golden function (compute_golden(tensors, params) or "
                                   f"golden_{self.name}(tensors))")
        _seed_everything(seed, self.torch)
        return generate_named_inputs(self.module, params, self.torch, self.helpers["torch_dtype"],
                                     self.helpers["scalar_value"], self.result)

    def _arguments(self, values):
        args = [v for _, v in values]
        func = getattr(self.obj, "_func", None)
        if self.kind == "jit" and func is not None:
            param_names = list(inspect.signature(func).parameters)
            by_name = dict(values)
            if param_names and set(param_names) <= set(by_name):
                args = [by_name[p] for p in param_names]
        return args

    # ---- the program

    def _ptoas(self) -> bool:
        """The simulator runs kernel C++; without ptoas the compile stops at .pto files."""
        if self.ptoas_checked:
            return True
        ptoas = self.helpers["ptoas_binary"]()
        self.result["ptoas"] = "ran" if ptoas else "skipped"
        self.result["ptoas_path"] = ptoas or ""
        if not ptoas:
            self.result["status"] = "ptoas_missing"
            self.result["phase"] = "compile"
            self.result["exception_message"] = ("ptoas was not found (PTOAS_ROOT, PATH): the compile stops at .pto "
                                                "kernels and the simulator has no kernel C++ to build")
            print(f"port-check run: {self.result['exception_message']}", file=sys.stderr)
            return False
        self.ptoas_checked = True
        return True

    def _compile_stage_signature(self, fallback):
        """The signature the compile stage compiled for (its arguments from the default params), else
        `fallback` (the first case's) when they cannot be told."""
        entry_arguments = self.helpers.get("entry_arguments")
        try:
            found = _signature(entry_arguments(self.obj, self.module, {}), self.torch) if entry_arguments else None
        except BaseException:  # noqa: BLE001 - unknown: the program serves the first case's shapes
            found = None
        return found if found is not None else fallback

    def _program(self, args):
        """(compiled, folder, how): the program for these arguments' shapes. how: compile_stage (the
        compile stage's, --compiled-dir), reused (compiled for an earlier case of the same shapes) or
        compiled (for this one, through the compile adapter's compile_program)."""
        signature = _signature(args, self.torch) if self.kind == "jit" else "program"  # a program's shapes are fixed
        if signature in self.programs:
            return (*self.programs[signature], "reused")
        if not self.tried_reuse:
            self.tried_reuse = True
            compiled = _reuse_compiled(self.options, self.result)
            if compiled is not None:
                self.folders += 1
                # One run (no contract) takes it as it always did; cases take it for the shapes it has.
                stage = self._compile_stage_signature(signature) if self.kind == "jit" and self.contract else signature
                self.programs[stage] = (compiled, self.options.out_dir)
                if stage == signature:
                    return compiled, self.options.out_dir, "compile_stage"
        folder = self.options.out_dir if self.folders == 0 else os.path.join(self.options.out_dir,
                                                                              f"shape-{self.folders}")
        # The first compile reports into the result (output_dir, ptoas) as a single run always did.
        target = self.result if self.folders == 0 else {}
        self.folders += 1
        self.compiles += 1
        compiled = self.helpers["compile_program"](self.kind, self.obj, args, self.options.platform, folder, target)
        self.programs[signature] = (compiled, folder)
        return compiled, folder, "compiled"

    def _lower(self, values):
        """The entry's post-pass IR for these arguments (the JIT's lower(): passes, no codegen), for a
        program reloaded from the compile stage, which carries none; a @pl.program is its own IR."""
        if self.kind != "jit":
            return lambda: self.obj
        args = self._arguments(values)
        signature = _signature(args, self.torch)

        def lower():  # once per shape: the store check and the localisation may both want it
            if signature not in self.lowered:
                from pypto.runtime import RunConfig  # noqa: PLC0415

                self.lowered[signature] = self.obj.lower(*args, config=RunConfig(platform=self.options.platform))
            return self.lowered[signature]
        return lower

    # ---- one case run

    def run(self, params, seed, label=None, case=None) -> tuple[list, dict]:
        """(output entries, facts for the gaming checks). Raises CaseFailed with result["status"] set."""
        torch, result = self.torch, self.result
        result["phase"] = "inputs"
        frozen_path = expected = None
        if self.frozen_dir:
            frozen_path = os.path.join(self.frozen_dir, frozen_key(self.sources, params_json(params, json_safe), seed)
                                       + ".pt")
            case["frozen_path"] = os.path.basename(frozen_path)
            data, note = frozen_load(frozen_path, torch)
            if data is not None:
                try:
                    self._outputs_from(data["inputs"])
                    missing = [o for o in self.outputs if not isinstance(data["expected"].get(o), torch.Tensor)]
                    if missing:
                        raise RunContractError(f"it lacks the output(s) {', '.join(missing)}")
                    values, expected = data["inputs"], data["expected"]
                    case["frozen"] = "replayed"
                    result.setdefault("inputs_source", "frozen")
                    _seed_everything(seed, torch)
                except RunContractError as exc:
                    data, note = None, f"frozen golden {case['frozen_path']} does not fit golden.py ({exc}): recomputed"
            if note:
                case["frozen_note"] = note
        try:
            if expected is None:
                values = self._generate(params, seed)
            self._outputs_from(values)
        except RunContractError as exc:
            _contract_failed(result, exc)
        except BaseException as exc:  # noqa: BLE001
            _record_exception(result, exc, "input_error")
            result["golden_function"] = "generate_inputs" if hasattr(self.module, "generate_inputs") else \
                "build_tensor_specs"
            raise CaseFailed from None
        outputs = self.outputs
        gaming = self.contract is not None  # the checks against gamed goldens look at the bytes of each tensor
        facts = {"inputs": _inputs_digest(values, outputs, torch),
                 "input_tensors": {n: tensor_facts(v, torch) for n, v in values if isinstance(v, torch.Tensor)}} \
            if gaming else {}
        # One copy of the inputs as generated serves the frozen golden (saved) and the IR runs (localisation,
        # the store check); neither writes into it.
        freeze = bool(frozen_path) and expected is None
        look = self.localise or (self.guard and not self.stores_checked)
        generated = [(n, v.clone() if isinstance(v, torch.Tensor) else v) for n, v in values] \
            if freeze or look else None
        keep = generated if freeze else None
        pristine = generated if look else None
        # The golden sees the inputs as generated, whatever the run does to them.
        golden_tensors = {n: (v.clone() if isinstance(v, torch.Tensor) else v) for n, v in values}
        guards = []
        if self.guard:
            placed = []
            for n, v in values:
                if n in outputs:
                    v, guarded = port_check_guard.place(n, v, torch)
                    if guarded is not None:
                        guards.append(guarded)
                placed.append((n, v))
            values = placed
        args = self._arguments(values)
        if not self._ptoas():
            raise CaseFailed

        result["phase"] = "compile"
        started = time.monotonic()
        try:
            compiled, folder, how = self._program(args)
        except BaseException as exc:  # noqa: BLE001
            _record_exception(result, exc, "compile_error")
            raise CaseFailed from None
        self.seconds_compile += time.monotonic() - started
        result["seconds_compile"] = round(self.seconds_compile, 3)
        if case is not None:
            case["compile"] = how

        result["phase"] = "execute"
        started = time.monotonic()
        try:
            from pypto.runtime import RunConfig  # noqa: PLC0415

            config = RunConfig(platform=self.options.platform, save_kernels=True, save_kernels_dir=folder)
            returned = compiled(*args, config=config)
        except BaseException as exc:  # noqa: BLE001
            _record_exception(result, exc, "run_error")
            raise CaseFailed from None
        self.seconds_execute += time.monotonic() - started
        result["seconds_execute"] = round(self.seconds_execute, 3)
        actual = dict(values)
        if isinstance(returned, torch.Tensor) and len(outputs) == 1:
            current = actual.get(outputs[0])
            if not isinstance(current, torch.Tensor) or returned.data_ptr() != current.data_ptr():
                actual[outputs[0]] = returned  # return-style call: the runtime allocated the output

        if expected is None:
            result["phase"] = "golden"
            try:
                _call_flexibly(self.golden_fn, golden_tensors, params)
            except BaseException as exc:  # noqa: BLE001
                _record_exception(result, exc, "golden_error")
                raise CaseFailed from None
            expected = {o: golden_tensors[o] for o in outputs}
            if keep is not None:
                try:
                    frozen_save(frozen_path, keep, {o: v for o, v in expected.items() if isinstance(v, torch.Tensor)},
                                {"case": label, "params": params_json(params, json_safe), "seed": seed}, torch)
                    case["frozen"] = "saved"
                except Exception as exc:  # noqa: BLE001 - a golden not saved is computed again next time
                    case["frozen_note"] = f"not saved ({type(exc).__name__}: {exc})"

        result["phase"] = "compare"
        entries, facts["outputs"] = [], {}
        for out in outputs:
            got, want = actual[out], expected[out]
            comparator = self.comparators[out]
            if not isinstance(got, torch.Tensor) or not isinstance(want, torch.Tensor):
                entry = {"name": out, "passed": False, "verdict": "not_a_tensor", "dtype": type(got).__name__,
                         "rtol": comparator["rtol"], "atol": comparator["atol"], "comparator": comparator["comparator"],
                         "stats": None}
            else:
                try:
                    entry = compare_with(out, got, want, comparator, torch)
                except RunContractError as exc:
                    _contract_failed(result, exc)
                if gaming:
                    facts["outputs"][out] = {"actual": tensor_facts(got, torch), "golden": tensor_facts(want, torch),
                                             "never_written": bool(entry.get("never_written"))}
            entry["tolerance_source"] = comparator["tolerance_source"]
            entry["comparator_source"] = comparator["comparator_source"]
            entries.append(entry)
            print(f"[port-check run] {label + ' ' if label else ''}'{out}' {'PASS' if entry['passed'] else 'FAIL'} "
                  f"mismatches={entry.get('mismatches', '-')}/{entry.get('elements', '-')} "
                  f"max_abs_err={entry.get('max_abs_err')}", file=sys.stderr)
        facts["guard"] = [f for g in guards for f in port_check_guard.check(g, torch)]
        if self.guard and not self.stores_checked:
            # The guard zones cannot see an overrun on the real runtime (it copies exact-size buffers): the
            # IR's stores are checked against their tensors' bounds instead, once per contract.
            self.stores_checked = True
            overruns, notes = port_check_localise.ir_overruns(compiled, pristine, outputs, label or "default", torch,
                                                              lower=self._lower(pristine))
            facts["guard"] += overruns
            if notes:
                result.setdefault("contract_notes", []).extend(notes)
        if self.localise and not all(e["passed"] for e in entries):
            self.localise = False
            result["phase"] = "localise"
            result["localisation"] = port_check_localise.localise(
                compiled, pristine, expected, outputs, self.comparators, self.options.platform, folder,
                label or "default", torch, lower=self._lower(pristine),
                simulated={o: actual[o] for o in outputs if isinstance(actual.get(o), torch.Tensor)})
            result["phase"] = "compare"
        return entries, facts


def execute(options, result: dict, name: str, obj, kind: str, spec_module, helpers) -> int:
    """The run: once (a golden.py without CONTRACT, or --no-contract), else every case of its CONTRACT
    under every seed. `helpers` carries the compile adapter's functions (torch_dtype, scalar_value,
    compile_program, ptoas_binary, entry_arguments)."""
    import torch  # noqa: PLC0415

    result["schema"] = RUN_SCHEMA
    result["mode"] = "run"
    result["torch_version"] = str(getattr(torch, "__version__", ""))
    result["seed"] = int(options.seed)
    declared = spec_module is not None and hasattr(spec_module, "CONTRACT")
    result["contract"] = {"declared": declared, "kind": None, "seeds": [], "cases": [], "gaming": [], "guard": []}
    result["guard_mode"] = "off"
    if spec_module is None:
        result["status"] = "contract_error"
        result["exception_message"] = "no golden.py: a run needs its inputs, outputs and golden function"
        return 1
    only = getattr(options, "case", None)
    contract = None
    try:
        if only and (not declared or getattr(options, "no_contract", False)):
            raise RunContractError(f"--case {only} picks a case of golden.py's CONTRACT, and "
                                   + ("--no-contract runs once without it" if declared else "golden.py has none"))
        if declared and not getattr(options, "no_contract", False):
            result["phase"] = "inputs"
            contract = read_contract(spec_module)
            result["contract"].update(kind=contract.kind, seeds=list(contract.seeds))
            runs = expand(contract, _params(spec_module), only)
    except RunContractError as exc:
        result["status"] = "contract_error"
        result["exception_type"] = "port-check.RunContractError"
        result["exception_message"] = str(exc)
        print(f"port-check run: {exc}", file=sys.stderr)
        return 1
    session = _Session(options, result, name, obj, kind, spec_module, helpers, torch, contract)
    result.update(rtol=session.rtol, atol=session.atol, tolerance_source=session.tol_source)
    if contract is None:
        if declared:
            result["contract"]["note"] = "--no-contract: one run with the default params, as without a CONTRACT"
        return _single(session, options, result)
    return _contract(session, contract, runs, only, result)


def _single(session: _Session, options, result: dict) -> int:
    """One run with the default params and --seed: the run as it was before contracts."""
    try:
        entries, _ = session.run(_params(session.module), int(options.seed))
    except CaseFailed:
        return 1
    result["outputs"] = json_safe(entries)
    result["passed"] = all(o["passed"] for o in entries)
    result["phase"] = "done"
    result["status"] = "ok"
    return 0 if result["passed"] else 1


def _contract(session: _Session, contract, runs: list[dict], only, result: dict) -> int:
    """Every case run in turn; a case that fails before its comparison stops the contract there."""
    cases, records, guard, error = [], [], {}, None
    result["guard_mode"] = port_check_guard.GUARD_MODE if session.guard else "off"
    for run in runs:
        case = {"id": run["case"], "category": run["category"], "seed": run["seed"],
                "params": json_safe(run["params"]), "passed": False, "status": None, "outputs": [], "frozen": None}
        cases.append(case)
        started = time.monotonic()
        try:
            entries, facts = session.run(run["params"], run["seed"], run["label"], case)
        except CaseFailed:
            case["status"] = result.get("status")
            case["error"] = f"{result.get('exception_type', result.get('status'))}: {result.get('exception_message', '')}"
            case["seconds"] = round(time.monotonic() - started, 3)
            error = case
            break
        case["outputs"] = json_safe(entries)
        case["passed"] = all(o["passed"] for o in entries)
        case["status"] = "ok" if case["passed"] else "mismatch"
        case["seconds"] = round(time.monotonic() - started, 3)
        records.append({"label": run["label"], "case": run["case"], **facts})
        for finding in facts["guard"]:
            key = (finding["tensor"], finding["side"])
            if key not in guard:
                guard[key] = dict(finding, cases=[])
            kept = guard[key]
            kept["bytes_changed"] = max(kept["bytes_changed"], finding["bytes_changed"])
            kept["first_offset"] = min(kept["first_offset"], finding["first_offset"])
            kept["cases"].append(run["label"])
    gaming = gaming_findings(records, session.outputs or [])
    result["contract"] = json_safe({
        "declared": True, "kind": contract.kind, "seeds": list(contract.seeds), "masked": contract.masked,
        "shapes": contract.shapes, "case_filter": only, "compiles": session.compiles, "cases": cases,
        "gaming": gaming, "guard": list(guard.values()),
        "frozen_dir": os.path.abspath(session.frozen_dir) if session.frozen_dir else None})
    for finding in gaming + list(guard.values()):
        rule = finding.get("rule", "GOLD023")
        text = finding.get("detail") or (f"'{finding['tensor']}': {finding['bytes_changed']} byte(s) changed "
                                         f"{finding['side']} it in {', '.join(finding['cases'])}")
        print(f"[port-check run] {rule} {text}", file=sys.stderr)
    result["passed"] = False
    if error is not None:
        result["failed_case"] = f"{error['id']}/{error['seed']}"
        return 1
    failing = next((c for c in cases if not c["passed"]), None)
    shown = failing or cases[0]
    if failing is not None:
        result["failed_case"] = f"{failing['id']}/{failing['seed']}"
    result["outputs"] = shown["outputs"]
    result["seed"] = shown["seed"]
    result["passed"] = failing is None and not gaming and not guard
    print(f"[port-check run] contract: {sum(c['passed'] for c in cases)}/{len(cases)} case runs passed"
          + (f", first failure {result['failed_case']}" if failing else ""), file=sys.stderr)
    result["phase"] = "done"
    result["status"] = "ok"
    return 0 if result["passed"] else 1
