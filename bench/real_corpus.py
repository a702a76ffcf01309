#!/usr/bin/env python3
"""port-check against the real compiler on upstream PyPTO code (issue 17's yardstick).

    bench/real_corpus.py --pypto DIR --pypto-lib DIR --python EXE --port-check BIN --work DIR \\
        [--platform a2a3|a5] [--stage compile,estimate,errors,speed] [--timeout 300] [--only REGEX]

Corpus: every DSL program file (a module-level @pl.jit, @pl.jit.host or @pl.program entry, with or
without a __main__ block) of pypto-lib's examples/ and models/ and pypto's examples/; files holding
only helper DSL functions are listed as left out. Nothing is written into the checkouts
(PYTHONDONTWRITEBYTECODE, every output folder and cache under WORK).

Stages (each resumes: what WORK already holds is not redone):

compile   runs each file the way its author does (pypto-lib: from the root with the root on PYTHONPATH,
          `python FILE -p <platform>sim` when it takes -p; pypto: `python FILE`), and when that yields no
          program, compiles its first @pl.jit entry (else @pl.jit.host, else @pl.program class) in
          signature mode (from its annotations, scalars without a default pl.RUNTIME). A file neither
          way compiles is a miss, printed with each attempt's last error line. Compile only: pass dumps
          on, ptoas skipped, every program compiled for the platform measured, nothing dispatched
          (pypto's run, CompiledProgram calls, golden's run/run_jit compile-only, the files' own allclose
          checks no-ops, so a file holding several programs compiles all of them), the JIT's disk cache
          kept per file. The compiler's figure of a (function, space) pair is the high-water mark of its
          *_after_AllocateMemoryAddr.py dump (largest offset + size).
estimate  `port-check report --format json` per file, its (function, space) estimates compared with
          the compiler's: named (an estimate under the compiler's name) and within +-10%.
errors    one cold `port-check lint --format json` of the three trees (C++ files included): files
          that get an error, leaving out program files whose compile produced nothing.
speed     cold lint (--no-cache) of the corpus trees beside pyflakes (Debian's python3-pyflakes) on
          the same .py files, with hyperfine; also port-check on one thread (-j1), for its CPU cost,
          and the parse floor (build/bench/parse-floor: parse and walk the same .py files with
          port-check's grammar), the CPU no tree-sitter linter goes under. Prints the wall ratio to
          pyflakes and the CPU ratio to the floor.

Prints one Markdown table per stage; WORK/summary.json keeps the figures.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

AUTHOR_COMPILE = '''
import os, runpy, sys
path = os.path.abspath(sys.argv[1])
sys.argv = [path, *sys.argv[2:]]
# As `python FILE` does; in signature mode the file is imported as a module, so its folder goes last
# (a models/x/contract.py must not hide the root's contract package).
if os.environ.get("REAL_CORPUS_MODE", "main") == "main":
    sys.path.insert(0, os.path.dirname(path))
else:
    sys.path.append(os.path.dirname(path))
import torch
import pypto.ir
import pypto.runtime
import pypto.runtime.runner as runner
compile_module = sys.modules["pypto.ir.compile"]
original_compile = compile_module.compile
def with_dumps(program, *args, **kwargs):
    kwargs["dump_passes"] = True
    # The figures are the pass pipeline's: no ptoas (a ptoas of another pin fails codegen and would
    # stop a __main__ before its next program).
    kwargs["skip_ptoas"] = True
    # The platform measured, whatever the file defaults to (a file without -p compiles for a2a3sim).
    wanted = os.environ.get("REAL_CORPUS_PLATFORM")
    given = kwargs.get("platform") or ""
    if wanted and not given.startswith(wanted):
        kwargs["platform"] = wanted + "sim"
    return original_compile(program, *args, **kwargs)
compile_module.compile = with_dumps
pypto.ir.compile = with_dumps
# `fn.lower(...)` (the full pass pipeline without codegen, as several examples' __main__ run it) goes
# through _run_pass_pipeline, not compile: dump its passes too, each lowering in a folder of its own.
original_pipeline = compile_module._run_pass_pipeline
lowered = [0]
def pipeline_with_dumps(program, *args, **kwargs):
    if kwargs.get("operation") == "lower" and not kwargs.get("dump_passes"):
        lowered[0] += 1
        kwargs["dump_passes"] = True
        kwargs["passes_dump_dir"] = os.path.join(os.environ["PYPTO_PROG_BUILD_DIR"], "_lower_%d" % lowered[0],
                                                 "passes_dump")
        wanted = os.environ.get("REAL_CORPUS_PLATFORM")
        if wanted and not (kwargs.get("platform") or "").startswith(wanted):
            kwargs["platform"] = wanted + "sim"
    return original_pipeline(program, *args, **kwargs)
compile_module._run_pass_pipeline = pipeline_with_dumps
original_run = runner.run
def codegen_only(program, *tensors, config=None):
    config = config or runner.RunConfig()
    config.codegen_only = True
    return original_run(program, *tensors, config=config)
runner.run = codegen_only
pypto.runtime.run = codegen_only
try:
    import pypto.ir.compiled_program as compiled_program
    compiled_program.CompiledProgram.__call__ = lambda self, *a, **k: None
except (ImportError, AttributeError):
    pass
torch.allclose = lambda *a, **k: True
torch.testing.assert_close = lambda *a, **k: None
try:
    import golden, golden.runner as golden_runner
    for name in ("run", "run_jit"):
        def forced(*a, _fn=getattr(golden_runner, name), **k):
            k["compile_only"] = True
            return _fn(*a, **k)
        setattr(golden_runner, name, forced)
        setattr(golden, name, forced)
except ImportError:
    pass
try:
    import pathlib, pypto.jit.cache as jit_cache
    # The JIT's on-disk cache would hand back an earlier compile without running the passes (no dumps).
    jit_cache._L2_CACHE_ROOT = pathlib.Path(os.environ["PYPTO_PROG_BUILD_DIR"]) / "jit-cache"
except (ImportError, AttributeError, KeyError):
    pass
MODE = os.environ.get("REAL_CORPUS_MODE", "main")
# A file of a package that imports relatively runs as its author runs it: `python -m pkg.mod` from the
# folder above the outermost package (`python FILE` fails: no known parent package).
package_root, module_parts = os.path.dirname(path), [os.path.splitext(os.path.basename(path))[0]]
while os.path.isfile(os.path.join(package_root, "__init__.py")):
    module_parts.insert(0, os.path.basename(package_root))
    package_root = os.path.dirname(package_root)
with open(path, encoding="utf-8") as handle:
    relative_imports = any(line.lstrip().startswith("from .") for line in handle)
if MODE == "main" and len(module_parts) > 1 and relative_imports:
    sys.path.insert(0, package_root)
    runpy.run_module(".".join(module_parts), run_name="__main__", alter_sys=True)
elif MODE == "main":
    runpy.run_path(path, run_name="__main__")
else:
    # Signature mode: the file's first @pl.jit entry (else its first @pl.jit.host, else its first
    # @pl.program class, else the program its first program builder makes with its defaults) compiled
    # from its annotations; scalar parameters without a default stay symbolic (pl.RUNTIME).
    import ast, inspect
    import pypto.language as pl
    from pypto.runtime import RunConfig
    platform = os.environ["REAL_CORPUS_PLATFORM"]
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    def decorator_name(node):
        node = node.func if isinstance(node, ast.Call) else node
        return ast.unparse(node)
    found = {"pl.jit": None, "pl.jit.host": None, "pl.program": None, "builder": None}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for deco in node.decorator_list:
                name = decorator_name(deco)
                if name in found and found[name] is None:
                    found[name] = node.name
        # A module-level function whose parameters all have defaults and whose body makes a @pl.program
        # class (pypto's build_llama_mini_program()): the program it builds with its defaults.
        if isinstance(node, ast.FunctionDef) and found["builder"] is None and \
                len(node.args.defaults) == len(node.args.args) and not node.args.kwonlyargs[len(node.args.kw_defaults):]:
            if any(isinstance(inner, ast.ClassDef) and any(decorator_name(d) == "pl.program" for d in inner.decorator_list)
                   for inner in ast.walk(node)):
                found["builder"] = node.name
    entry_kind = next((k for k in found if found[k]), None)
    if entry_kind is None:
        print("REAL_CORPUS: no @pl.jit entry, @pl.program class or program builder at module level", file=sys.stderr)
        sys.exit(3)
    module = runpy.run_path(path, run_name="__real_corpus__")
    entry = module[found[entry_kind]]
    print(f"REAL_CORPUS entry {entry_kind} {found[entry_kind]}", file=sys.stderr)
    if entry_kind == "builder":
        entry_kind, entry = "pl.program", entry()
    if entry_kind == "pl.program":
        compile_module.compile(entry, platform=platform + "sim", dump_passes=True)
    else:
        params = inspect.signature(entry._func).parameters
        scalars = {}
        for name, param in params.items():
            text = param.annotation if isinstance(param.annotation, str) else repr(param.annotation)
            if param.default is inspect.Parameter.empty and "Scalar" in str(text):
                scalars[name] = pl.RUNTIME
        entry.compile(**scalars, config=RunConfig(platform=platform + "sim", dump_passes=True))
'''

MEMREF = re.compile(r"pl\.MemRef\(\s*(\w+),\s*(?:pl\.const\((-?\d+),\s*pl\.\w+\)|(-?\d+)),\s*(\d+)\),\s*pl\.Mem\.(\w+)")
RESERVE = re.compile(r"reserve_buffer\(name='[^']*',\s*size=(\d+),\s*base=(-?\d+)")
FUNCTION_TYPE = re.compile(r"@pl\.function\(.*type=pl\.FunctionType\.(\w+)")
DEF = re.compile(r"\s*def (\w+)\(")


def dump_figures(dump: str) -> dict[str, int]:
    """(function/space) -> high-water mark of one AllocateMemoryAddr dump: the largest offset + size
    of a tile's MemRef, and of a cross-core ring (reserve_buffer base + size; Mat on an AIC function,
    else Vec)."""
    figures: dict[str, int] = {}
    function, pending, kind = None, "", ""
    with open(dump, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            m = FUNCTION_TYPE.search(line)
            if m:
                pending = m.group(1)
            m = DEF.match(line)
            if m:
                function, kind, pending = m.group(1), pending, ""
                continue
            if function is None:
                continue
            for _, const_offset, plain_offset, size, space in MEMREF.findall(line):
                key = f"{function}/{space}"
                end = int(const_offset or plain_offset) + int(size)
                figures[key] = max(figures.get(key, 0), end)
            m = RESERVE.search(line)
            if m:
                key = f"{function}/{'Mat' if kind == 'AIC' else 'Vec'}"
                figures[key] = max(figures.get(key, 0), int(m.group(2)) + int(m.group(1)))
    return figures


DSL_DECORATOR = re.compile(r"^\s*@pl\.(jit|program)\b", re.M)
ENTRY_DECORATOR = re.compile(r"^\s*@pl\.(?:jit|jit\.host|program)\s*(?:\(|$)", re.M)
MAIN_BLOCK = re.compile(r"^if __name__ == .__main__.:", re.M)


def corpus(roots: dict[str, str], only: str | None, left_out: list | None = None) -> list[tuple[str, str]]:
    """Every DSL program file: an entry (@pl.jit, @pl.jit.host or @pl.program), with or without a
    __main__ block (a file without one is compiled in signature mode). Files holding DSL functions
    but no entry (helper modules of @pl.jit.inline / incore functions) go to LEFT_OUT with why."""
    files = []
    for label, subs in (("pypto-lib", ["examples", "models"]), ("pypto", ["examples"])):
        for sub in subs:
            for folder, dirs, names in os.walk(os.path.join(roots[label], sub)):
                dirs.sort()
                for name in sorted(names):
                    if not name.endswith(".py"):
                        continue
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8", errors="replace") as handle:
                        text = handle.read()
                    if not DSL_DECORATOR.search(text):
                        continue
                    rel = os.path.relpath(path, roots[label])
                    if only and not re.search(only, f"{label}:{rel}"):
                        continue
                    if ENTRY_DECORATOR.search(text):
                        files.append((label, rel))
                    elif left_out is not None:
                        left_out.append((label, rel, "helper module: DSL functions (jit.inline / jit.incore) "
                                                      "but no @pl.jit, @pl.jit.host or @pl.program entry"))
    return files


def slot(options, label: str, rel: str) -> str:
    return os.path.join(options.work, options.platform, label, rel.replace("/", "__"))


def env_for(label: str, roots: dict[str, str], options, with_pypto: bool) -> dict[str, str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    paths = [roots[label]] if label == "pypto-lib" else []
    if with_pypto:
        paths.append(os.path.join(options.pypto, "python"))
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths + [p for p in [os.environ.get("PYTHONPATH")] if p])
    return env


def last_error(log: str) -> str:
    """The line that says why a run produced nothing: the last exception line of its log."""
    lines = [line.strip() for line in str(log).splitlines() if line.strip()]
    for line in reversed(lines):
        if re.match(r"^[\w.]*(Error|Exception|Exit)\b|^[\w.]+: ", line) and not line.startswith("File "):
            return line[:300]
    return lines[-1][:300] if lines else "no output"


def compile_one(options, roots, label: str, rel: str) -> dict:
    """Compile one file as its author runs it (its __main__); when that yields no program, through
    its first @pl.jit entry in signature mode. compile.json records the mode that produced the dumps
    ("main", "signature") or "miss", with each attempt's exit and last error line."""
    base = slot(options, label, rel)
    meta_path = os.path.join(base, "compile.json")
    if os.path.exists(meta_path):
        with open(meta_path, encoding="utf-8") as handle:
            meta = json.load(handle)
        if "mode" in meta:
            return meta
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    root = roots[label]
    with open(os.path.join(root, rel), encoding="utf-8") as handle:
        text = handle.read()
    takes_p = re.search(r"add_argument\(\s*[\"']-p[\"']", text) is not None
    has_main = MAIN_BLOCK.search(text) is not None
    argv = ["-p", options.platform + "sim"] if takes_p else []
    env = env_for(label, roots, options, with_pypto=True)
    env["REAL_CORPUS_PLATFORM"] = options.platform  # the shim compiles every program for it
    # Only the pass pipeline's figures are wanted: keep ptoas off PATH so kernels are not generated.
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not os.path.exists(os.path.join(p, "ptoas")))
    started = time.monotonic()

    def attempt(mode: str, args: list[str]) -> tuple[str, object]:
        run_env = dict(env, REAL_CORPUS_MODE=mode, PYPTO_PROG_BUILD_DIR=os.path.join(base, "out"))
        try:
            proc = subprocess.run(["nice", options.python, os.path.join(options.work, "author_compile.py"),
                                   os.path.join(root, rel), *args], cwd=root, env=run_env, capture_output=True,
                                  text=True, timeout=options.timeout)
            return proc.stdout + proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
            return f"{out}{err}\nTimeout: {options.timeout} s", "timeout"

    def dumps() -> list[str]:
        return sorted(glob.glob(os.path.join(base, "out", "**", "passes_dump", "*_after_AllocateMemoryAddr.py"),
                                recursive=True))

    attempts = []
    mode = "miss"
    if has_main:
        log, exit_code = attempt("main", argv)
        # Files whose -p takes only device platforms (a2a3, a5): compile only, so the device name is as good.
        if exit_code == 2 and "invalid choice" in str(log) and argv:
            log, exit_code = attempt("main", ["-p", options.platform])
        attempts.append({"mode": "main", "exit": exit_code, "why": last_error(log)})
        with open(os.path.join(base, "compile.log"), "w", encoding="utf-8") as handle:
            handle.write(log)
        if dumps():
            mode = "main"
    if mode == "miss":
        shutil.rmtree(os.path.join(base, "out"), ignore_errors=True)
        log, exit_code = attempt("signature", [])
        attempts.append({"mode": "signature", "exit": exit_code, "why": last_error(log)})
        with open(os.path.join(base, "compile-signature.log"), "w", encoding="utf-8") as handle:
            handle.write(log)
        if dumps():
            mode = "signature"
    programs = [{"folder": os.path.relpath(os.path.dirname(os.path.dirname(dump)), base),
                 "dump": os.path.relpath(dump, base)} for dump in dumps()]
    meta = {"label": label, "file": rel, "mode": mode, "has_main": has_main, "attempts": attempts,
            "exit": attempts[-1]["exit"], "seconds": round(time.monotonic() - started, 1), "programs": programs}
    with open(meta_path, "w", encoding="utf-8") as handle:
        json.dump(meta, handle, indent=1)
    return meta


def compiler_pairs(options, meta: dict) -> dict[str, int]:
    """Union over the file's programs; a pair compiled twice keeps its largest figure."""
    pairs: dict[str, int] = {}
    base = slot(options, meta["label"], meta["file"])
    for program in meta["programs"]:
        dumps = glob.glob(os.path.join(base, program["folder"], "passes_dump", "*_after_AllocateMemoryAddr.py"))
        figures = dump_figures(dumps[0]) if dumps else {}
        for key, value in figures.items():
            pairs[key] = max(pairs.get(key, 0), value)
    return pairs


def port_check_json(options, roots, label: str, rel: str, command: list[str], out: str) -> dict:
    env = env_for(label, roots, options, with_pypto=False)
    subprocess.run([options.port_check, *command, "--format", "json", "-o", out, os.path.join(roots[label], rel)],
                   cwd=roots[label], env=env, capture_output=True, text=True, timeout=options.timeout)
    try:
        with open(out, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


def estimate_one(options, roots, label: str, rel: str, meta: dict) -> dict:
    base = slot(options, label, rel)
    report = port_check_json(options, roots, label, rel,
                             ["report", "--platform", options.platform, "--fail-on", "never", "--no-kernel-compile",
                              "--cache-dir", os.path.join(base, "pc-cache"), "--html", os.path.join(base, "report.html")],
                             os.path.join(base, "report.json"))
    estimates: dict[str, int] = {}
    for row in report.get("sram", []):
        key = f"{row.get('function')}/{row.get('space')}"
        estimates[key] = max(estimates.get(key, 0), int(row.get("estimate") or 0))
    actual = compiler_pairs(options, meta)
    named = [k for k in actual if k in estimates]
    close = [k for k in named if abs(estimates[k] - actual[k]) <= 0.10 * max(actual[k], 1)]
    return {"pairs": len(actual), "named": len(named), "within10": len(close),
            "missing": sorted(k for k in actual if k not in estimates),
            "off": {k: [estimates[k], actual[k]] for k in named if k not in close}}


def lint_errors(options, roots) -> dict[str, list[str]]:
    """Files of the corpus trees (Python and C++) with an error from one cold lint of the trees."""
    trees = corpus_trees(roots)
    out = os.path.join(options.work, f"lint-{options.platform}.json")
    subprocess.run([options.port_check, "lint", "--no-cache", "--fail-on", "never", "--platform", options.platform,
                    "--format", "json", "-o", out, "--cache-dir", os.path.join(options.work, "lint-cache"), *trees],
                   capture_output=True, text=True, timeout=options.timeout)
    with open(out, encoding="utf-8") as handle:
        report = json.load(handle)
    errors: dict[str, set[str]] = {}
    for d in report.get("diagnostics", []):
        if isinstance(d, dict) and d.get("severity") == "error":
            errors.setdefault(os.path.abspath(d.get("file", "?")), set()).add(d.get("rule", "?"))
    return {path: sorted(rules) for path, rules in errors.items()}


def corpus_trees(roots) -> list[str]:
    return [os.path.join(roots["pypto-lib"], "examples"), os.path.join(roots["pypto-lib"], "models"),
            os.path.join(roots["pypto"], "examples")]


def speed(options, roots) -> None:
    trees = corpus_trees(roots)
    listing = os.path.join(options.work, "corpus-py.txt")
    with open(listing, "w", encoding="utf-8") as handle:
        for tree in trees:
            for folder, _, names in os.walk(tree):
                for name in sorted(names):
                    if name.endswith(".py"):
                        handle.write(os.path.join(folder, name) + "\n")
    cache = os.path.join(options.work, "lint-cache")
    lint = f"{options.port_check} lint --no-cache --fail-on never --cache-dir {cache} " + " ".join(trees)
    commands = [
        lint + " >/dev/null",
        lint + " -j1 >/dev/null",
        f"xargs {options.pyflakes} < {listing} >/dev/null || true",
    ]
    if os.access(options.parse_floor, os.X_OK):
        commands.append(f"{options.parse_floor} < {listing} >/dev/null")
    else:
        print(f"parse floor not timed: {options.parse_floor} is not built (cmake builds bench/parse_floor.c)")
    out = os.path.join(options.work, "speed.md")
    exported = os.path.join(options.work, "speed.json")
    subprocess.run(["hyperfine", "--warmup", "1", "--runs", str(options.runs), "--export-markdown", out,
                    "--export-json", exported, *commands], check=False)
    with open(out, encoding="utf-8") as handle:
        print(handle.read())
    with open(exported, encoding="utf-8") as handle:
        results = json.load(handle)["results"]
    wall = [r["mean"] for r in results]
    cpu = [r["user"] + r["system"] for r in results]
    print(f"lint (2 threads) is {wall[2] / wall[0]:.1f}x faster than pyflakes on the wall "
          f"({wall[0]:.3f} s vs {wall[2]:.3f} s)")
    if len(results) > 3:
        print(f"lint CPU is {cpu[0] / cpu[3]:.2f}x the parse floor's ({cpu[0]:.3f} s vs {cpu[3]:.3f} s; "
              f"-j1 {cpu[1] / cpu[3]:.2f}x)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pypto", required=True, help="PyPTO checkout with its extension built")
    parser.add_argument("--pypto-lib", required=True, help="pypto-lib checkout")
    parser.add_argument("--python", required=True, help="interpreter with torch that imports PyPTO")
    parser.add_argument("--port-check", required=True, help="the port-check binary measured")
    parser.add_argument("--work", required=True, help="folder for compiler output, reports and results")
    parser.add_argument("--platform", choices=["a2a3", "a5"], default="a2a3")
    parser.add_argument("--stage", default="compile,estimate,errors,speed")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per compile")
    parser.add_argument("--runs", type=int, default=5, help="hyperfine runs of the speed stage")
    parser.add_argument("--only", help="regular expression on LABEL:FILE")
    parser.add_argument("--jobs", type=int, default=2, help="port-check reports run at once (estimate stage)")
    parser.add_argument("--parse-floor", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                                              "build", "bench", "parse-floor"),
                        help="the parse-floor binary of the speed stage (built from bench/parse_floor.c)")
    parser.add_argument("--pyflakes", default="/usr/bin/python3 -m pyflakes",
                        help="the pyflakes command the speed stage compares with (Debian: python3-pyflakes)")
    options = parser.parse_args()
    for attr in ("pypto", "pypto_lib", "work", "port_check"):
        setattr(options, attr, os.path.abspath(getattr(options, attr)))
    stages = set(options.stage.split(","))
    os.makedirs(options.work, exist_ok=True)
    with open(os.path.join(options.work, "author_compile.py"), "w", encoding="utf-8") as handle:
        handle.write(AUTHOR_COMPILE)
    roots = {"pypto-lib": options.pypto_lib, "pypto": options.pypto}
    left_out: list = []
    files = corpus(roots, options.only, left_out)
    summary = {"platform": options.platform, "files": len(files), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "left_out": left_out}
    print(f"corpus: {len(files)} program files; {len(left_out)} files with DSL functions left out:")
    for label, rel, why in left_out:
        print(f"  {label}:{rel}: {why}")

    metas = []
    if "compile" in stages or "estimate" in stages or "errors" in stages:
        for index, (label, rel) in enumerate(files, 1):
            if "compile" not in stages and not os.path.exists(os.path.join(slot(options, label, rel), "compile.json")):
                metas.append({"label": label, "file": rel, "mode": "miss", "programs": [], "exit": None,
                              "attempts": [{"mode": "none", "exit": None, "why": "not compiled yet (run the compile stage)"}]})
                continue
            meta = compile_one(options, roots, label, rel)
            metas.append(meta)
            print(f"[{index}/{len(files)}] {label}:{rel} {meta['mode']} exit {meta['exit']} {meta['seconds']} s, "
                  f"{len(meta['programs'])} program(s)", file=sys.stderr, flush=True)
        accepted = [m for m in metas if m["programs"]]
        summary["compiled_files"] = len(accepted)
        summary["compiler_pairs"] = sum(len(compiler_pairs(options, m)) for m in accepted)
        print(f"\ncompile: {len(accepted)} of {len(files)} files compile ({summary['compiler_pairs']} (function, space) pairs)")
        misses = [m for m in metas if not m["programs"]]
        print(f"misses ({len(misses)} of {len(files)} files: no AllocateMemoryAddr dump, through __main__ nor signature mode):")
        for meta in misses:
            print(f"  {meta['label']}:{meta['file']}: " +
                  "; ".join(f"{a['mode']}: {a['why']}" for a in meta.get("attempts", [])))
        summary["misses"] = {f"{m['label']}:{m['file']}": m.get("attempts", []) for m in misses}

    if "estimate" in stages:
        from concurrent.futures import ThreadPoolExecutor
        accepted = [m for m in metas if m["programs"]]
        with ThreadPoolExecutor(max_workers=options.jobs) as pool:
            results = list(pool.map(lambda m: estimate_one(options, roots, m["label"], m["file"], m), accepted))
        groups: dict[str, dict[str, int]] = {}
        lines = ["| file | mode | pairs | named | within ±10% |", "|:---|:---|---:|---:|---:|"]
        for meta, result in zip(accepted, results):
            with open(os.path.join(slot(options, meta["label"], meta["file"]), "estimate.json"), "w",
                      encoding="utf-8") as handle:
                json.dump(result, handle, indent=1)
            for group in (meta["mode"], "all"):
                totals = groups.setdefault(group, {"files": 0, "pairs": 0, "named": 0, "within10": 0})
                totals["files"] += 1
                for key in ("pairs", "named", "within10"):
                    totals[key] += result[key]
            lines.append(f"| {meta['label']}:{meta['file']} | {meta['mode']} | {result['pairs']} | {result['named']} | "
                         f"{result['within10']} |")
        with open(os.path.join(options.work, f"estimate-{options.platform}.md"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        print(f"\nestimate, {options.platform}, {summary['date']}: corpus {len(files)} program files, "
              f"{len(accepted)} compiled, {len(files) - len(accepted)} misses (listed above); per file in "
              f"{os.path.join(options.work, f'estimate-{options.platform}.md')}")
        print("\n| | files | pairs | named like the compiler | within ±10% |\n|---|---:|---:|---:|---:|")
        for group, title in (("main", "compiled through their own `__main__`"),
                             ("signature", "compiled in signature mode (first `@pl.jit` entry)"),
                             ("all", "**every pair of every compiled file**")):
            totals = groups.get(group, {"files": 0, "pairs": 0, "named": 0, "within10": 0})
            pct = lambda n: f"{100.0 * n / max(totals['pairs'], 1):.1f}%"
            print(f"| {title} | {totals['files']} | {totals['pairs']:,} | {totals['named']:,} ({pct(totals['named'])}) | "
                  f"{totals['within10']:,} ({pct(totals['within10'])}) |")
        summary["estimate"] = groups

    if "errors" in stages:
        # Accepted: every file of the trees except program files whose compile produced nothing.
        rejected = {os.path.join(roots[m["label"]], m["file"]) for m in metas if not m["programs"]}
        flagged = {path: rules for path, rules in lint_errors(options, roots).items() if path not in rejected}
        print(f"\nerrors: {len(flagged)} files the compiler accepts get an error "
              f"({len(rejected)} program files that do not compile left out)")
        for path, rules in sorted(flagged.items()):
            print(f"  {path}: {', '.join(rules)}")
        summary["false_error_files"] = flagged

    if "speed" in stages:
        speed(options, roots)

    with open(os.path.join(options.work, f"summary-{options.platform}.json"), "w", encoding="utf-8") as handle:
        json.dump(summary, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
