"""Compiles what a program file's own __main__ compiles (docs/compile-adapter.md §1).

A program file is specialised the way its author runs it: its `if __name__ == "__main__":` block runs
with sys.argv as the file's documented invocation (`-p <platform>` when its argparse takes -p or
--platform), and every compile it starts goes through port-check's settings (platform, pass dumps,
one output folder per program) while nothing is dispatched:

- `pypto.ir.compile` (which every path ends in: `@pl.jit` calls and `.compile`, `golden.run`,
  `pypto.runtime.run`) compiles into `<out>/<program>/` with dump_passes and port-check's platform;
- a `@pl.jit` entry called like a function is compiled (`.compile`) instead of run;
- pypto-lib's `golden.run` / `golden.run_jit` run with `compile_only=True`;
- `CompiledProgram.__call__` and `pypto.runtime.execute_compiled` do nothing.

The block's own assert statements are left out (as under `python -O`): they check outputs that were
never computed. An exception the block raises after something was compiled (a check in a helper
function) ends the block, not the compile. The caller (port_check_adapter.run) falls back to
build_tensor_specs / signatures when the block compiled nothing.
"""

from __future__ import annotations

import __future__
import ast
import copy
import dataclasses
import functools
import inspect
import os
import shutil
import sys

MARKER = "[port-check] compiling"


def main_block(tree: ast.Module) -> ast.If | None:
    """The module's top-level `if __name__ == "__main__":` statement, if any."""
    def is_main_test(test) -> bool:
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
            return False
        sides = [test.left, test.comparators[0]]
        names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
        consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
        return len(names) == 1 and len(consts) == 1

    for node in tree.body:
        if isinstance(node, ast.If) and is_main_test(node.test):
            return node
    return None


def documented_argv(tree: ast.Module, platform: str) -> list[str]:
    """The arguments of the documented invocation: `-p <platform>` when an add_argument declares
    -p or --platform (pypto-lib's `python models/x/y.py -p a2a3sim`), else none (pypto's examples)."""
    flags: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            flags.update(a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    for flag in ("-p", "--platform"):
        if flag in flags:
            return [flag, platform]
    return []


def holders(attr: str, obj) -> list:
    """Every loaded module whose namespace binds `attr` to `obj` (read from its __dict__, so no lazy
    module's __getattr__ runs)."""
    found = []
    for mod in list(sys.modules.values()):
        namespace = getattr(mod, "__dict__", None)
        if isinstance(namespace, dict) and namespace.get(attr) is obj:
            found.append(mod)
    return found


def safe_name(name: str) -> str:
    text = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
    return text or "program"


class MainFollower:
    """Runs a program file's __main__ block with every compile redirected and nothing dispatched."""

    def __init__(self, module, path: str, tree: ast.Module, block: ast.If, options, ptoas: str | None,
                 candidates: list[tuple[str, object, str]], work_dir: str) -> None:
        self.module, self.path, self.tree, self.block = module, path, tree, block
        self.platform, self.out_dir, self.ptoas = options.platform, options.out_dir, ptoas
        self.work_dir = work_dir
        self.names_by_id = {id(obj): name for name, obj, _ in candidates}
        self.compiled: list[tuple[str, str]] = []  # (program, output folder) in compile order
        self.failure: tuple[str, BaseException, str] | None = None  # the first compile that raised: label, exception, folder
        self.scope: list[str] = []  # entries being compiled (names the JIT's program)
        self.stopped: BaseException | None = None  # what ended the block after something compiled
        self.argv = [path, *documented_argv(tree, self.platform)]
        self._restore: list[tuple[object, str, object]] = []

    # -- naming and folders ------------------------------------------------------------------------

    def program_name(self, program) -> str:
        if self.scope:
            return self.scope[-1]
        if id(program) in self.names_by_id:
            return self.names_by_id[id(program)]
        name = str(getattr(program, "name", "") or type(program).__name__)
        return name[len("_jit_"):] if name.startswith("_jit_") else name

    def folder_for(self, name: str) -> tuple[str, str]:
        """(label, folder): a second compile of the same program (another shape) is `name#2`."""
        taken = {label for label, _ in self.compiled}
        label, n = name, 1
        while label in taken:
            n += 1
            label = f"{name}#{n}"
        folder = os.path.join(self.out_dir, safe_name(label.replace("#", "-")))
        shutil.rmtree(folder, ignore_errors=True)
        return label, folder

    def fail(self, name: str, exc: BaseException, folder: str = "") -> None:
        if self.failure is None:
            self.failure = (name, exc, folder)

    # -- the interceptions ---------------------------------------------------------------------------

    def patch(self, owner, attr: str, replacement) -> None:
        original = getattr(owner, attr, None)
        if original is None:
            return
        self._restore.append((owner, attr, original))
        setattr(owner, attr, replacement)

    def wrap_ir_compile(self, original):
        signature = inspect.signature(original)

        @functools.wraps(original)
        def compile_here(program, *args, **kwargs):
            bound = signature.bind_partial(program, *args, **kwargs)
            name = self.program_name(program)
            label, folder = self.folder_for(name)
            bound.arguments["output_dir"] = folder
            bound.arguments["dump_passes"] = True
            bound.arguments["platform"] = self.platform
            bound.arguments.pop("backend_type", None)  # follows the platform
            if self.ptoas is None and "skip_ptoas" in signature.parameters:
                bound.arguments["skip_ptoas"] = True
            print(f"{MARKER} {label} into {folder}", file=sys.stderr, flush=True)
            try:
                compiled = original(*bound.args, **bound.kwargs)
            except BaseException as exc:
                self.fail(label, exc, folder)
                raise
            self.compiled.append((label, folder))
            return compiled

        return compile_here

    def config_here(self, config):
        """The caller's RunConfig (its compile options kept) with port-check's platform and dumps."""
        from pypto.runtime import RunConfig  # noqa: PLC0415

        if config is None:
            return RunConfig(platform=self.platform, dump_passes=True)
        if dataclasses.is_dataclass(config):
            return dataclasses.replace(config, platform=self.platform, dump_passes=True)
        config = copy.copy(config)
        config.platform, config.dump_passes = self.platform, True
        return config

    def install(self) -> None:
        import pypto.ir  # noqa: PLC0415
        from pypto.jit.decorator import JITFunction  # noqa: PLC0415

        # Every module holding pypto.ir.compile (the package re-exports it; `from pypto.ir import
        # compile` binds it elsewhere) gets the redirected one.
        compile_module = sys.modules.get("pypto.ir.compile")
        original = getattr(compile_module, "compile", None) if compile_module is not None else None
        if not callable(original):
            original = getattr(pypto.ir, "compile", None)
        if callable(original) and not inspect.ismodule(original):
            redirected = self.wrap_ir_compile(original)
            for mod in holders("compile", original):
                self.patch(mod, "compile", redirected)

        follower = self
        original_jit_compile = JITFunction.compile

        def jit_compile(entry, *args, **kwargs):
            kwargs["config"] = follower.config_here(kwargs.get("config"))
            follower.scope.append(follower.names_by_id.get(id(entry), getattr(entry, "__name__", "entry")))
            try:
                return original_jit_compile(entry, *args, **kwargs)
            except BaseException as exc:
                follower.fail(follower.scope[-1], exc)
                raise
            finally:
                follower.scope.pop()

        def jit_call(entry, *args, **kwargs):
            jit_compile(entry, *args, **kwargs)  # compiled, not run: outputs stay as they were
            return None

        self.patch(JITFunction, "compile", jit_compile)
        self.patch(JITFunction, "__call__", jit_call)
        self.install_lower(JITFunction, compile_module)

        def not_dispatched(*_args, **_kwargs):
            return None

        compiled_program = sys.modules.get("pypto.ir.compiled_program")
        if compiled_program is not None and hasattr(compiled_program, "CompiledProgram"):
            self.patch(compiled_program.CompiledProgram, "__call__", not_dispatched)
        for name in ("pypto.runtime.runner", "pypto.runtime"):
            mod = sys.modules.get(name)
            if mod is not None and hasattr(mod, "execute_compiled"):
                self.patch(mod, "execute_compiled", not_dispatched)
        self.install_golden()

    def install_lower(self, jit_function, compile_module) -> None:
        """`entry.lower(*samples)` (the pass pipeline without codegen, as pypto's examples/intermediate
        run it) dumps its passes into a folder of its own, on port-check's platform: the compile's
        figures, with no ptoas run."""
        original_lower = getattr(jit_function, "lower", None)
        original_pipeline = getattr(compile_module, "_run_pass_pipeline", None) if compile_module else None
        if not callable(original_lower) or not callable(original_pipeline):
            return
        follower = self
        lowering = []  # the folder of the lower() running

        def pipeline(program, *args, **kwargs):
            if lowering and kwargs.get("operation") == "lower":
                kwargs["dump_passes"] = True
                kwargs["passes_dump_dir"] = os.path.join(lowering[-1], "passes_dump")
                kwargs["platform"] = follower.platform
                kwargs.pop("backend_type", None)
            return original_pipeline(program, *args, **kwargs)

        def jit_lower(entry, *args, **kwargs):
            name = follower.names_by_id.get(id(entry), getattr(entry, "__name__", "entry"))
            label, folder = follower.folder_for(name)
            print(f"{MARKER} {label} into {folder}", file=sys.stderr, flush=True)
            lowering.append(folder)
            follower.scope.append(name)
            try:
                lowered = original_lower(entry, *args, **kwargs)
            except BaseException as exc:
                follower.fail(label, exc, folder)
                raise
            finally:
                follower.scope.pop()
                lowering.pop()
            follower.compiled.append((label, folder))
            return lowered

        self.patch(compile_module, "_run_pass_pipeline", pipeline)
        self.patch(jit_function, "lower", jit_lower)

    def install_golden(self) -> None:
        """pypto-lib's harness compiles, then runs and validates: compile only."""
        originals = {}
        for name in ("golden.runner", "golden"):
            mod = sys.modules.get(name)
            for attr in ("run", "run_jit"):
                fn = getattr(mod, attr, None) if mod is not None else None
                if callable(fn) and not getattr(fn, "__port_check_compile_only__", False):
                    originals.setdefault(id(fn), (attr, fn))
        for attr, fn in originals.values():
            @functools.wraps(fn)
            def compile_only(*args, __fn=fn, **kwargs):
                kwargs["compile_only"] = True
                kwargs["runtime_dir"] = None
                return __fn(*args, **kwargs)

            compile_only.__port_check_compile_only__ = True
            for mod in holders(attr, fn):  # `from golden import run_jit` bound it early
                self.patch(mod, attr, compile_only)

    def uninstall(self) -> None:
        for owner, attr, original in reversed(self._restore):
            setattr(owner, attr, original)
        self._restore.clear()

    # -- running -----------------------------------------------------------------------------------

    def run(self) -> None:
        """Runs the block; when its argparse rejects `-p a2a3sim` (choices a2a3 / a5 only, pypto-lib's
        models) before anything compiled, once more with the device name: nothing is dispatched, and
        every compile still gets port-check's platform."""
        try:
            self.run_once()
        except SystemExit as exc:
            platform = self.argv[-1] if len(self.argv) == 3 else ""
            if exc.code != 2 or self.compiled or self.failure or not platform.endswith("sim"):
                raise
            self.argv[-1] = platform[: -len("sim")]
            self.run_once()

    def run_once(self) -> None:
        """Runs the block. Exceptions other than compile failures that end it after a compile are
        kept in `stopped`; the rest propagate (a failure before anything compiled is the caller's)."""
        # The block compiles with the module's own `from __future__` imports.
        flags = 0
        for node in self.tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                for alias in node.names:
                    feature = getattr(__future__, alias.name, None)
                    flags |= getattr(feature, "compiler_flag", 0)
        # Without asserts (as under `python -O`): the block's asserts check outputs that were never
        # computed, and one would end the block before the programs after it compile.
        code = compile(ast.Module(body=self.block.body, type_ignores=[]), self.path, "exec", flags=flags,
                       dont_inherit=True, optimize=1)
        globals_ = self.module.__dict__
        saved_name, saved_argv, saved_cwd = globals_.get("__name__"), sys.argv, os.getcwd()
        # As under `python file.py`, the file is the __main__ module: what the block defines has
        # __module__ "__main__", and inspect (the @pl.program parser reads a class's source through
        # it) must find the file there, not the adapter.
        saved_main = sys.modules.get("__main__")
        # A scratch working folder: whatever the block writes stays out of the user's tree.
        scratch = os.path.join(self.work_dir, "main-cwd")
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch, exist_ok=True)
        self.install()
        try:
            globals_["__name__"] = "__main__"
            sys.modules["__main__"] = self.module
            sys.argv = list(self.argv)
            os.chdir(scratch)
            exec(code, globals_)  # noqa: S102 - the author's own __main__, as `python file.py` runs it
        except SystemExit as exc:
            if exc.code not in (None, 0) and (self.compiled or self.failure):
                self.stopped = exc
            elif exc.code not in (None, 0):
                raise
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001
            if not (self.compiled or self.failure):
                raise
            self.stopped = exc
        finally:
            os.chdir(saved_cwd)
            sys.argv = saved_argv
            globals_["__name__"] = saved_name
            if saved_main is not None:
                sys.modules["__main__"] = saved_main
            self.uninstall()
