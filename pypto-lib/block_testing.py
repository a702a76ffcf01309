"""Shared by the pypto-lib blocks' plain-torch tests (pypto-lib/<block>/test_<block>.py).

Importing it exits with status 77 (ctest: skipped) when torch is missing. load_block() imports a
block file with stand-ins for pypto.language and pypto-lib's `golden.TensorSpec`, so the block's
constants, reference and golden functions are testable without a PyPTO build: the golden math is
plain torch; the stand-ins only let decorators, annotations and `from golden import TensorSpec`
evaluate.
"""
import collections
import importlib.util
import pathlib
import sys
import types

try:
    import torch  # noqa: F401 - re-exported for the tests
except ImportError:  # pragma: no cover - depends on the machine
    print("SKIP: torch is not installed")
    raise SystemExit(77)

__all__ = ["TensorSpec", "load_block", "torch"]

TensorSpec = collections.namedtuple(
    "TensorSpec", ["name", "shape", "dtype", "init_value", "is_output"], defaults=[None, False]
)


class _Anything:
    """Any attribute, item or call: decorators return the function they decorate, the rest itself."""

    def __getattr__(self, name):
        return self

    def __getitem__(self, key):
        return self

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], _Anything):
            return args[0]
        return self


def load_block(path):
    """The block module at `path`, with `build_tensor_specs_result` set to its build_tensor_specs()."""
    path = pathlib.Path(path)
    pypto = types.ModuleType("pypto")
    language = types.ModuleType("pypto.language")
    language.__getattr__ = lambda name: _Anything()
    pypto.language = language
    golden = types.ModuleType("golden")
    golden.TensorSpec = TensorSpec
    saved = {k: sys.modules.get(k) for k in ("pypto", "pypto.language")}
    sys.modules.update({"pypto": pypto, "pypto.language": language})
    sys.modules.setdefault("golden", golden)  # build_tensor_specs imports it when called
    try:
        spec = importlib.util.spec_from_file_location(f"_block_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.build_tensor_specs_result = module.build_tensor_specs()
        return module
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
