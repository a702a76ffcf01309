"""port-check compile adapter: compiles one PyPTO program and writes one result file.

port-check runs this script with the configured interpreter, PYTHONPATH pointing into the PyPTO
checkout and the working directory set to the user's source folder. The contract (what a project's
golden.py provides, which program is compiled, the result file) is docs/compile-adapter.md.

Usage:
    python3 -B port_check_adapter.py (--project DIR | --program-file FILE) --platform a2a3sim
        --out-dir DIR --result FILE [--entry NAME] [--mode compile|run] [--seed N]
        [--case ID[/SEED]] [--no-contract] [--no-guard] [--no-localise] [--frozen-dir DIR]
        [--then-run-out-dir DIR --then-run-result FILE]

--mode run also executes the program on the simulator and compares its outputs with golden.py
(port_check_run.py, docs/run-stage.md). --then-run-* does that in the same process once a port
compiled (one interpreter start, one torch and pypto import, instead of two). A golden.py with a
CONTRACT runs every case of it under every seed (docs/contract.md): --case picks one case,
--no-contract runs once as without it, --no-guard drops the guard zones around the outputs, and
--frozen-dir keeps each case's inputs and expected outputs to replay.

It never lets an exception escape: every failure, including SystemExit, KeyboardInterrupt and the
parser errors PyPTO renders through its sys.excepthook, ends up in the result file (and, printed
the way the interpreter would print it, in the log). Exit status: 0 compiled, 1 the program did not
compile or load, 3 the adapter itself failed.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import os
import sys
import time
import traceback
import types

from port_check_main import MARKER, MainFollower, main_block, safe_name

# Printed between a compile and the run chained to it (--then-run-*): the log before it is the compile's.
RUN_MARKER = "[port-check] run phase"

ADAPTER_VERSION = "1"
RESULT_SCHEMA = "port-check-adapter-result/1"

# Platform names port-check passes -> the names RunConfig / ir.compile accept.
PLATFORMS = {"a2a3": "a2a3sim", "a2a3sim": "a2a3sim", "a5": "a5sim", "a5sim": "a5sim"}


class AdapterError(Exception):
    """A problem with the port's structure (no program, bad specs), reported with its own status."""

    def __init__(self, status: str, message: str, **extra: str) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


# --------------------------------------------------------------------------------------------------
# Result file


def type_name(exc_type: type) -> str:
    """The exception type as the interpreter prints it in a traceback's last line."""
    module = getattr(exc_type, "__module__", "") or ""
    name = getattr(exc_type, "__qualname__", exc_type.__name__)
    return name if module in ("builtins", "__main__") else f"{module}.{name}"


def write_result(path: str, result: dict) -> None:
    """Writes the result atomically: a reader sees the whole file or none."""
    text = json.dumps(result, indent=2, sort_keys=True, default=str)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text + "\n")
    os.replace(tmp, path)


def describe_exception(result: dict, exc: BaseException) -> None:
    result["exception_type"] = type_name(type(exc))
    try:
        result["exception_message"] = str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__ must not lose the result
        result["exception_message"] = repr(exc)
    result["traceback"] = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def parser_error_type() -> type | None:
    module = sys.modules.get("pypto.language.parser.diagnostics.exceptions")
    if module is None:
        try:
            from pypto.language.parser.diagnostics import exceptions as module  # noqa: PLC0415
        except Exception:  # noqa: BLE001
            return None
    return getattr(module, "ParserError", None)


def describe_parser_error(result: dict, exc: BaseException) -> None:
    """Parser errors: the attributes, and the block PyPTO's excepthook would have printed."""
    result["parser_message"] = str(getattr(exc, "message", "") or exc)
    span = getattr(exc, "span", None)
    if isinstance(span, dict):
        result["parser_file"] = str(span.get("filename") or span.get("file") or "")
        result["parser_line"] = str(span.get("line") or span.get("begin_line") or "")
        result["parser_column"] = str(span.get("column") or span.get("begin_column") or "")
    elif span is not None:
        for attr, key in (("filename", "parser_file"), ("begin_line", "parser_line"), ("begin_column", "parser_column")):
            value = getattr(span, attr, None)
            if value is not None:
                result[key] = str(value)
    for attr in ("hint", "note"):
        value = getattr(exc, attr, None)
        if value:
            result[f"parser_{attr}"] = str(value)
    try:
        from pypto.language.parser.diagnostics.renderer import ErrorRenderer  # noqa: PLC0415

        rendered = ErrorRenderer(use_color=False).render(exc)
    except Exception as render_exc:  # noqa: BLE001
        rendered = f"Error: {result['parser_message']}"
        result["render_error"] = f"{type_name(type(render_exc))}: {render_exc}"
    result["rendered"] = rendered
    # Exactly what the hook prints, so the log reads like a plain `python3 program.py`.
    print(rendered, file=sys.stderr)
    print("\nnote: run with `PTO_BACKTRACE=1` environment variable to display a backtrace.", file=sys.stderr)


def report_exception(result: dict, exc: BaseException, status: str) -> None:
    """Fills the result for `exc` and prints it to the log the way the interpreter would."""
    result["status"] = status
    describe_exception(result, exc)
    parser_error = parser_error_type()
    if parser_error is not None and isinstance(exc, parser_error):
        result["status"] = "compile_error"
        result["error_kind"] = "parser"
        describe_parser_error(result, exc)
        return
    sys.stderr.write(result["traceback"])


# --------------------------------------------------------------------------------------------------
# Loading the port


def load_module(path: str, name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AdapterError("load_error", f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def install_golden_shim(start_dir: str) -> None:
    """pypto-lib programs import TensorSpec/ScalarSpec (and run/run_jit) from pypto-lib's `golden` package.

    Use the one the caller's PYTHONPATH provides, else the one in an ancestor folder holding
    golden/__init__.py, else a minimal stand-in (enough to compile; its run/run_jit compile only).
    """
    if importlib.util.find_spec("golden") is not None:
        return
    folder = os.path.abspath(start_dir)
    while True:
        if os.path.isfile(os.path.join(folder, "golden", "__init__.py")):
            if folder not in sys.path:
                sys.path.append(folder)
            return
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    shim = types.ModuleType("golden")
    shim.__doc__ = "port-check stand-in for pypto-lib's golden package (TensorSpec, ScalarSpec; run/run_jit compile only)"

    class TensorSpec:  # noqa: D401 - mirrors pypto-lib's dataclass fields
        def __init__(self, name, shape, dtype, init_value=None, is_output=False, resident=None):
            self.name, self.shape, self.dtype = name, list(shape), dtype
            self.init_value, self.is_output, self.resident = init_value, is_output, resident

    class ScalarSpec:
        def __init__(self, name, dtype, value):
            self.name, self.dtype, self.value = name, dtype, value

    class RunResult:
        passed, error, work_dir = True, None, None

    def run_jit(fn, specs, golden_fn=None, golden_data=None, compile_cfg=None, runtime_cfg=None, *_args, **_kwargs):
        import torch  # noqa: PLC0415
        from pypto.runtime import RunConfig  # noqa: PLC0415

        args = [scalar_value(s.value) if getattr(s, "shape", None) is None
                else torch.empty(list(s.shape), dtype=torch_dtype(s.dtype, torch)) for s in specs]
        cfg = dict(compile_cfg or {})
        if (runtime_cfg or {}).get("platform"):
            cfg["platform"] = runtime_cfg["platform"]
        fn.compile(*args, config=RunConfig(**cfg))
        return RunResult()

    def run(program, specs, golden_fn=None, golden_data=None, compile_cfg=None, runtime_cfg=None, *_args, **_kwargs):
        from pypto import ir  # noqa: PLC0415

        ir.compile(program, **dict(compile_cfg or {}))
        return RunResult()

    shim.TensorSpec, shim.ScalarSpec, shim.RunResult = TensorSpec, ScalarSpec, RunResult
    shim.run, shim.run_jit = run, run_jit
    shim.__port_check_shim__ = True
    sys.modules["golden"] = shim


def project_modules(project: str) -> list[tuple[str, str]]:
    """(module name, path) of the top-level .py files of pypto_src, golden.py first."""
    names = sorted(f for f in os.listdir(project) if f.endswith(".py") and not f.startswith("."))
    names.sort(key=lambda f: (f != "golden.py", f))
    return [(f[:-3], os.path.join(project, f)) for f in names]


def candidates_in(module: types.ModuleType, jit_type: type | None, program_type: type | None) -> list[tuple[str, object, str]]:
    """(name, object, kind) of the compilable programs a module defines itself."""
    found = []
    for name, obj in vars(module).items():
        if jit_type is not None and isinstance(obj, jit_type):
            if getattr(obj, "_func_type", "orchestration") not in ("orchestration", "host"):
                continue  # @pl.jit.incore / inline / opaque / extern: called by an entry, not compiled alone
            func = getattr(obj, "_func", None)
            if func is not None and getattr(func, "__module__", module.__name__) != module.__name__:
                continue  # imported from another module: counted there
            found.append((name, obj, "jit"))
        elif program_type is not None and isinstance(obj, program_type):
            found.append((name, obj, "program"))
    return found


def find_candidates(modules: list[types.ModuleType], result: dict) -> list[tuple[str, object, str, str]]:
    """(display name, object, kind, module) of every program the modules define; display names are
    module-qualified when two modules define the same name (ENTRY may use either form)."""
    from pypto import ir  # noqa: PLC0415
    from pypto.jit.decorator import JITFunction  # noqa: PLC0415

    program_type = getattr(ir, "Program", None)
    found: list[tuple[str, object, str, str]] = []
    seen: set[int] = set()
    for module in modules:
        for name, obj, kind in candidates_in(module, JITFunction, program_type):
            if id(obj) not in seen:
                seen.add(id(obj))
                found.append((name, obj, kind, module.__name__))
    plain = [name for name, _, _, _ in found]
    named = [(f"{mod}.{name}" if plain.count(name) > 1 else name, obj, kind, mod) for name, obj, kind, mod in found]
    result["candidates"] = ", ".join(n for n, _, _, _ in named)
    return named


def choose_program(found: list[tuple[str, object, str, str]], entry: str | None, several_ok: bool = False):
    """The programs to compile: ENTRY's, else the only one, else (a program file) all of them."""
    names = [n for n, _, _, _ in found]
    if entry:
        for name, obj, kind, mod in found:
            if entry in (name, f"{mod}.{name}", name.rsplit(".", 1)[-1]):
                return [(name.rsplit(".", 1)[-1], obj, kind)]
        raise AdapterError(
            "no_program",
            f"ENTRY names '{entry}', but no @pl.jit entry or @pl.program class of that name was found"
            + (f" (found: {', '.join(names)})" if names else ""),
        )
    if not found:
        raise AdapterError("no_program", "no @pl.jit entry function or @pl.program class was found")
    if len(found) > 1 and not several_ok:
        raise AdapterError(
            "ambiguous_program",
            f"{len(found)} programs found ({', '.join(names)}); set ENTRY = \"<name>\" in golden.py "
            "to say which one is compiled",
        )
    return [(name, obj, kind) for name, obj, kind, _ in found]


# --------------------------------------------------------------------------------------------------
# Tensor specs for a @pl.jit entry


def torch_dtype(value, torch):
    """torch.dtype from a torch dtype, a pl dtype (pl.FP32) or a name ("float32", "fp32", "bf16")."""
    if isinstance(value, torch.dtype):
        return value
    text = str(getattr(value, "name", None) or value).lower()
    text = text.rsplit(".", 1)[-1]
    aliases = {
        "fp32": "float32", "float": "float32", "fp16": "float16", "half": "float16", "bf16": "bfloat16",
        "fp64": "float64", "double": "float64", "int": "int32", "long": "int64", "bool": "bool",
    }
    text = aliases.get(text, text)
    dtype = getattr(torch, text, None)
    if isinstance(dtype, torch.dtype):
        return dtype
    raise AdapterError("spec_error", f"unknown dtype {value!r} in the tensor specs")


def spec_fields(spec):
    """(name, shape, dtype, value, is_scalar) from a TensorSpec/ScalarSpec-like object, dict or tuple."""
    if isinstance(spec, dict):
        get = spec.get
    elif isinstance(spec, (tuple, list)):
        if len(spec) < 3:
            raise AdapterError("spec_error", f"a tensor spec tuple needs (name, shape, dtype), got {spec!r}")
        return str(spec[0]), list(spec[1]), spec[2], None, False
    else:
        def get(key, default=None):
            return getattr(spec, key, default)
    name = get("name")
    if name is None:
        raise AdapterError("spec_error", f"tensor spec {spec!r} has no name")
    if get("shape") is None:  # ScalarSpec: name, dtype, value
        return str(name), None, get("dtype"), get("value"), True
    return str(name), list(get("shape")), get("dtype"), None, False


def scalar_value(value):
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    if hasattr(value, "value") and not isinstance(value, (int, float, bool)):
        return value.value  # ctypes.c_int64 and friends
    return value


def call_flexibly(fn, params):
    """Calls fn with its defaults (fn()), or with the case params: by name when they cover its
    required parameters, else fn(params) when it takes one."""
    try:
        parameters = [
            p for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        parameters = []
    if not parameters:
        return fn()
    names = [p.name for p in parameters]
    if isinstance(params, dict) and params and set(names) <= set(params) and all(
            p.kind == p.POSITIONAL_OR_KEYWORD for p in parameters):
        return fn(**{n: params[n] for n in names})
    if len(parameters) == 1:
        return fn(params)
    raise AdapterError(
        "spec_error",
        f"{getattr(fn, '__name__', 'build_tensor_specs')}() needs {', '.join(names)}, and no ALL_CASES/DEFAULT_CASE "
        "gives them: give them defaults, or let the file's __main__ call it",
    )


def default_params(module):
    cases = getattr(module, "ALL_CASES", None)
    default = getattr(module, "DEFAULT_CASE", None)
    if isinstance(cases, dict) and cases:
        if default in cases:
            return cases[default]
        return next(iter(cases.values()))
    return {}


def entry_arguments(entry, spec_module, result: dict):
    """Positional arguments for `entry.compile(...)` in the entry's parameter order, or None to let the
    JIT read shapes from the signature annotations."""
    if spec_module is None:
        result["specs_source"] = "signature"
        return None
    builder = getattr(spec_module, "build_tensor_specs", None)
    inputs = getattr(spec_module, "generate_inputs", None)
    if builder is None and inputs is None:
        result["specs_source"] = "signature"
        return None
    values: list[tuple[str, object]] = []
    if builder is not None:
        result["specs_source"] = "build_tensor_specs"
        specs = call_flexibly(builder, default_params(spec_module))
    import torch  # noqa: PLC0415

    if builder is not None:
        for spec in specs or []:
            name, shape, dtype, value, is_scalar = spec_fields(spec)
            if is_scalar:
                values.append((name, scalar_value(value)))
            else:
                values.append((name, torch.empty([int(d) for d in shape], dtype=torch_dtype(dtype, torch))))
    else:
        result["specs_source"] = "generate_inputs"
        from port_check_golden import named_values  # noqa: PLC0415

        values = named_values(call_flexibly(inputs, default_params(spec_module)), spec_module, torch, scalar_value,
                              lambda message: AdapterError("spec_error", message))

    func = getattr(entry, "_func", None)
    params = list(inspect.signature(func).parameters) if func is not None else []
    by_name = dict(values)
    if params and set(params) <= set(by_name):
        return [by_name[p] for p in params]
    if params and len(values) != len(params):
        missing = [p for p in params if p not in by_name]
        raise AdapterError(
            "spec_error",
            f"the tensor specs ({result['specs_source']}) give {len(values)} arguments "
            f"({', '.join(n for n, _ in values)}), but '{getattr(entry, '__name__', 'entry')}' takes "
            f"{len(params)} ({', '.join(params)})" + (f"; missing: {', '.join(missing)}" if missing else ""),
        )
    result["specs_order"] = "positional"  # names differ from the parameters: taken in the order given
    return [v for _, v in values]


# --------------------------------------------------------------------------------------------------
# Compiling


def ptoas_binary() -> str | None:
    try:
        from pypto.backend._ptoas_locate import find_ptoas_binary  # noqa: PLC0415

        return find_ptoas_binary()
    except Exception:  # noqa: BLE001 - older pypto: fall back to PATH
        import shutil  # noqa: PLC0415

        return shutil.which("ptoas")


def compile_program(kind: str, obj, args, platform: str, out_dir: str, result: dict):
    ptoas = ptoas_binary()
    result["ptoas"] = "ran" if ptoas else "skipped"
    result["ptoas_path"] = ptoas or ""
    if kind == "jit":
        from pypto.runtime import RunConfig  # noqa: PLC0415

        config = RunConfig(platform=platform, dump_passes=True, save_kernels_dir=out_dir)
        compiled = obj.compile(*args, config=config) if args is not None else obj.compile(config=config)
    else:
        from pypto import ir  # noqa: PLC0415

        # Like the JIT: without ptoas stop at .pto files instead of failing every kernel.
        compiled = ir.compile(obj, output_dir=out_dir, platform=platform, dump_passes=True, skip_ptoas=ptoas is None)
    real_out = getattr(compiled, "output_dir", None)
    if real_out:
        result["output_dir"] = str(real_out)
    return compiled


def run(options, result: dict) -> int:
    result["phase"] = "import_pypto"
    started = time.monotonic()
    try:
        import pypto  # noqa: PLC0415
        import pypto.language  # noqa: F401, PLC0415
    except BaseException as exc:  # noqa: BLE001
        report_exception(result, exc, "toolchain_error")
        return 1
    result["pypto_version"] = str(getattr(pypto, "__version__", ""))
    result["pypto_path"] = os.path.dirname(getattr(pypto, "__file__", "") or "")
    result["seconds_import"] = f"{time.monotonic() - started:.3f}"

    result["phase"] = "load"
    modules: list[types.ModuleType] = []
    spec_module = None
    entry = options.entry
    if options.program_file:
        path = os.path.abspath(options.program_file)
        folder = os.path.dirname(path)
        sys.path.insert(0, folder)
        install_golden_shim(folder)
        stem = os.path.splitext(os.path.basename(path))[0]
        module = load_module(path, stem if stem not in sys.modules else f"port_check_program_{stem}")
        modules.append(module)
        spec_module = module
    else:
        project = os.path.abspath(options.project)
        sys.path.insert(0, project)
        for name, path in project_modules(project):
            module = load_module(path, name)
            modules.append(module)
            if name == "golden":
                spec_module = module
        if spec_module is not None and not entry:
            entry = getattr(spec_module, "ENTRY", None)
            if entry is not None and not isinstance(entry, str):
                entry = getattr(entry, "__name__", None) or str(entry)

    result["phase"] = "find"
    found = find_candidates(modules, result)
    if options.program_file and not entry:
        entry = getattr(spec_module, "ENTRY", None)  # a program file may name its entry like golden.py
        if entry is not None and not isinstance(entry, str):
            entry = getattr(entry, "__name__", None) or str(entry)
    options.loaded = (found, entry, spec_module)

    if options.mode == "run":  # simulator run + golden comparison: port_check_run.py, docs/run-stage.md
        return run_loaded(options, result, options.loaded)

    main_note = ""
    if options.program_file:
        outcome = follow_main(options, modules[0], found, entry, result)
        if isinstance(outcome, int):
            return outcome
        main_note = outcome

    if not found and main_note:  # say why the __main__ did not get as far as a compile
        raise AdapterError("no_program", "no @pl.jit entry function or @pl.program class was found at module "
                           f"level, and {main_note.split('; compiled from')[0]}")
    chosen = choose_program(found, entry, several_ok=bool(options.program_file))
    several = len(chosen) > 1
    notes = [main_note] if main_note else []
    if several:
        notes.append(f"{len(chosen)} programs ({', '.join(n for n, _, _ in chosen)}) and no __main__ that says "
                     "which to compile: each is compiled on its own; set ENTRY = \"<name>\" in the file to "
                     "compile one")
    if notes:
        result["choice_note"] = "; ".join(notes)
    programs: list[str] = []
    started = time.monotonic()
    for name, obj, kind in chosen:
        result["program"] = name
        result["kind"] = kind
        out_dir = os.path.join(options.out_dir, safe_name(name)) if several else options.out_dir
        result["output_dir"] = out_dir
        if several:
            programs.append(f"{name}\t{out_dir}")
            result["programs"] = "\n".join(programs)
            print(f"{MARKER} {name} into {out_dir}", file=sys.stderr, flush=True)
        args = None
        if kind == "jit":
            result["phase"] = "specs"
            args = entry_arguments(obj, spec_module, result)
        result["phase"] = "compile"
        compile_program(kind, obj, args, options.platform, out_dir, result)
    if several:
        result["program"], result["output_dir"] = chosen[0][0], os.path.join(options.out_dir, safe_name(chosen[0][0]))
    result["seconds_compile"] = f"{time.monotonic() - started:.3f}"
    result["phase"] = "done"
    result["status"] = "ok"
    return 0


def run_loaded(options, result: dict, loaded) -> int:
    """Run mode on the modules `run` loaded: the simulator run and the golden comparison."""
    import port_check_run  # noqa: PLC0415

    found, entry, spec_module = loaded
    [(name, obj, kind)] = choose_program(found, entry)
    result["program"] = name
    result["kind"] = kind
    helpers = {"torch_dtype": torch_dtype, "scalar_value": scalar_value, "compile_program": compile_program,
               "ptoas_binary": ptoas_binary, "entry_arguments": entry_arguments}
    return port_check_run.execute(options, result, name, obj, kind, spec_module, helpers)


def follow_main(options, module, found, entry: str | None, result: dict):
    """Compiles what the file's __main__ compiles (port_check_main.py). Returns the exit status when
    that settled the outcome, else a note saying why the file is compiled without it ("" when it
    has no __main__)."""
    import ast  # noqa: PLC0415

    path = os.path.abspath(options.program_file)
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), filename=path)
    block = main_block(tree)
    if block is None:
        return ""
    ptoas = ptoas_binary()
    result["ptoas"] = "ran" if ptoas else "skipped"
    result["ptoas_path"] = ptoas or ""
    follower = MainFollower(module, path, tree, block, options, ptoas, [(n, o, k) for n, o, k, _ in found],
                            os.path.dirname(os.path.abspath(options.out_dir)))
    result["phase"] = "compile"
    started = time.monotonic()
    try:
        follower.run()
        early = None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - the block failed before compiling anything
        early = exc
    result["seconds_compile"] = f"{time.monotonic() - started:.3f}"
    result["main_argv"] = " ".join(follower.argv[1:])
    kinds = {n.rsplit(".", 1)[-1]: k for n, _, k, _ in found}
    compiled = list(follower.compiled)
    if follower.failure is not None:
        compiled.append((follower.failure[0], follower.failure[2] or options.out_dir))
    if entry:
        compiled = [(label, folder) for label, folder in compiled if label.split("#", 1)[0] == entry]
    if compiled:
        result["specs_source"] = "__main__"
        result["programs"] = "\n".join(f"{label}\t{folder}" for label, folder in compiled)
        name = follower.failure[0] if follower.failure is not None else compiled[0][0]
        result["program"] = name
        result["kind"] = kinds.get(name.split("#", 1)[0], "jit")
        result["output_dir"] = dict(compiled)[name] if name in dict(compiled) else compiled[0][1]
        done = {label.split("#", 1)[0] for label, _ in compiled}
        missing = [n for n in kinds if n not in done]
        if follower.stopped is not None:
            stopped = f"{type_name(type(follower.stopped))}: {follower.stopped}".strip()
            result["main_stopped"] = stopped
            if missing and follower.failure is None:
                result["choice_note"] = (
                    f"the file's __main__ stopped ({stopped.splitlines()[0][:200]}) after compiling "
                    f"{', '.join(label for label, _ in compiled)}; {', '.join(missing)} "
                    f"{'was' if len(missing) == 1 else 'were'} not compiled: set ENTRY = \"<name>\" in the file "
                    "to compile one of them from its build_tensor_specs or signature")
        if follower.failure is not None:
            report_exception(result, follower.failure[1], "compile_error")
            return 1
        result["phase"] = "done"
        result["status"] = "ok"
        return 0
    if follower.failure is not None and not entry:
        result["program"] = follower.failure[0]
        report_exception(result, follower.failure[1], "compile_error")
        return 1
    if early is not None:
        first = f"{type_name(type(early))}: {early}".strip().splitlines()[0][:200]
        return (f"the file's __main__ ({' '.join(['python', os.path.basename(path), *follower.argv[1:]])}) "
                f"stopped before compiling anything ({first}); compiled from build_tensor_specs or the "
                "signature instead")
    return ("the file's __main__ compiled nothing" + (f" named {entry}" if entry else "")
            + "; compiled from build_tensor_specs or the signature instead")


def workspace_imports(options) -> str:
    """Files of loaded modules below --workspace and outside the program's folder, one relative path per line."""
    try:
        root = os.path.realpath(options.workspace)
        own = os.path.realpath(options.project or os.path.dirname(options.program_file))
        found = set()
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if not path:
                continue
            real = os.path.realpath(path)
            if real.startswith(own + os.sep) or not real.startswith(root + os.sep):
                continue
            if "site-packages" in real or "dist-packages" in real:  # a virtualenv kept in the workspace
                continue
            found.add(os.path.relpath(real, root).replace(os.sep, "/"))
        return "\n".join(sorted(found))
    except Exception:  # noqa: BLE001 - a missing list only costs a cache replay
        return ""


def new_result(options) -> dict:
    return {
        "schema": RESULT_SCHEMA,
        "adapter_version": ADAPTER_VERSION,
        "status": "internal_error",
        "phase": "start",
        "platform": options.platform,
        "python": sys.version.split()[0],
        "output_dir": options.out_dir,
        "program": "",
        "mode": options.mode,
    }


def guarded(options, result: dict, body) -> int:
    """body() with every failure recorded in `result`, which is written to options.result whatever happens."""
    code = 3
    try:
        code = body()
    except AdapterError as exc:
        result["status"] = exc.status
        result["exception_type"] = "port-check.AdapterError"
        result["exception_message"] = str(exc)
        result.update({k: str(v) for k, v in exc.extra.items()})
        print(f"port-check adapter: {exc}", file=sys.stderr)
        code = 1
    except SystemExit as exc:
        report_exception(result, exc, "load_error" if result["phase"] == "load" else "compile_error")
        result["exit_code"] = str(exc.code)
        code = 1
    except KeyboardInterrupt as exc:
        report_exception(result, exc, "interrupted")
        code = 1
    except BaseException as exc:  # noqa: BLE001 - the whole point: nothing escapes
        status = {"load": "load_error", "find": "load_error", "specs": "spec_error"}.get(result["phase"], "compile_error")
        report_exception(result, exc, status)
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001
            pass
        if options.workspace:
            result["workspace_imports"] = workspace_imports(options)
        write_result(options.result, result)
    return code


def chained_run(options, compiled: dict, started: float) -> int:
    """--then-run: the run mode on the port this process just compiled (its modules loaded, torch and
    pypto imported), into its own folder and result file. The compile's result is already written;
    RUN_MARKER splits the log between the two (docs/run-stage.md, "One process")."""
    run_options = argparse.Namespace(**vars(options))
    run_options.mode = "run"
    run_options.out_dir = options.then_run_out_dir
    run_options.result = options.then_run_result
    run_options.compiled_dir = compiled.get("output_dir") or options.out_dir
    run_options.workspace = None
    print(f"{RUN_MARKER} after {time.monotonic() - started:.3f} s", file=sys.stderr, flush=True)
    result = new_result(run_options)
    for key in ("pypto_version", "pypto_path", "seconds_import"):
        if key in compiled:
            result[key] = compiled[key]
    return guarded(run_options, result, lambda: run_loaded(run_options, result, options.loaded))


def main(argv: list[str]) -> int:
    started = time.monotonic()
    parser = argparse.ArgumentParser(prog="port_check_adapter.py")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--project", help="pypto_src folder of a port")
    where.add_argument("--program-file", help="one program file in pypto-lib's convention")
    parser.add_argument("--platform", required=True, choices=sorted(PLATFORMS))
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--result", required=True)
    parser.add_argument("--entry", default=None)
    parser.add_argument("--mode", choices=("compile", "run"), default="compile",
                        help="compile only, or also run on the simulator and compare with the golden")
    parser.add_argument("--seed", type=int, default=0, help="run mode: seed of every random generator")
    parser.add_argument("--compiled-dir", default=None,
                        help="run mode: the compile stage's output folder of this port (ir.compile's, with "
                             "compiled_meta.json); executed as it is instead of compiling again")
    parser.add_argument("--case", default=None, metavar="ID",
                        help="run mode: only this case of golden.py's CONTRACT (every seed), or ID/SEED for one run")
    parser.add_argument("--no-contract", action="store_true",
                        help="run mode: one run with the default params and --seed, as for a golden.py without CONTRACT")
    parser.add_argument("--no-guard", action="store_true",
                        help="run mode: hand the outputs to the program as they are, without guard zones (GOLD023)")
    parser.add_argument("--no-localise", action="store_true",
                        help="run mode: do not look for the first wrong task of a failing case (a torch run of the "
                             "IR and a simulator run with per-task dumps)")
    parser.add_argument("--frozen-dir", default=None, metavar="DIR",
                        help="run mode, with a CONTRACT: save each case's inputs and expected outputs here "
                             "(<key>.pt), and replay them instead of computing the golden again")
    parser.add_argument("--then-run-out-dir", default=None,
                        help="compile mode, a port: once it compiled, run it on the simulator in this process "
                             "(run mode into this folder)")
    parser.add_argument("--then-run-result", default=None, help="the chained run's result file")
    parser.add_argument("--workspace", default=None,
                        help="the tree imports resolve in: modules loaded from below it, outside the "
                             "program's own folder, are listed in workspace_imports (the cache depends on them)")
    options = parser.parse_args(argv)
    options.platform = PLATFORMS[options.platform]
    options.loaded = None

    result = new_result(options)
    code = guarded(options, result, lambda: run(options, result))
    chain = (options.mode == "compile" and options.then_run_out_dir and options.then_run_result and options.project
             and code == 0 and result.get("status") == "ok" and "programs" not in result and options.loaded)
    if chain:
        code = chained_run(options, result, started)
    return code


if __name__ == "__main__":
    # Parser errors would otherwise be printed by PyPTO's excepthook and leave no result: everything
    # is caught in main(), and os._exit skips interpreter teardown surprises after the result is out.
    status = main(sys.argv[1:])
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)
