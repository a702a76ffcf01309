"""Shared by the pypto-lib blocks' plain-torch tests (pypto-lib/<block>/test_<block>.py).

Importing it exits with status 77 (ctest: skipped) when torch is missing. load_block() imports a
block file with stand-ins for pypto.language and pypto-lib's `golden.TensorSpec`, so the block's
constants, reference and golden functions are testable without a PyPTO build: the golden math is
plain torch; the stand-ins only let decorators, annotations and `from golden import TensorSpec`
evaluate. contract_runs() expands a block's CONTRACT with port-check's own reader
(harness/adapter/port_check_contract.py) into the inputs and expected outputs of every case run.
"""
import collections
import importlib.util
import inspect
import pathlib
import sys
import types

try:
    import torch  # noqa: F401 - re-exported for the tests
except ImportError:  # pragma: no cover - depends on the machine
    print("SKIP: torch is not installed")
    raise SystemExit(77)

__all__ = ["TensorSpec", "check_contract_runs", "contract_runs", "load_block", "torch"]

_ADAPTER = pathlib.Path(__file__).resolve().parents[1] / "harness" / "adapter"

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


def contract_runs(block, golden_fn):
    """[(run, tensors)] for every case run of the block's CONTRACT, as `port-check verify` makes them:
    run is port-check's {"case", "category", "seed", "label", "params"}; tensors every argument of the
    entry from build_tensor_specs(params), outputs filled by golden_fn (given params when it takes them)."""
    if str(_ADAPTER) not in sys.path:
        sys.path.insert(0, str(_ADAPTER))
    import port_check_contract  # noqa: PLC0415 - port-check's reader, beside this repository's blocks

    contract = port_check_contract.parse_contract(block.CONTRACT, getattr(block, "SEED", None))
    takes_params = len(inspect.signature(golden_fn).parameters) > 1
    runs = []
    for run in port_check_contract.expand(contract, {}):
        tensors = {}
        for spec in block.build_tensor_specs(run["params"]):
            value = spec.init_value() if spec.init_value is not None else torch.zeros(spec.shape, dtype=spec.dtype)
            tensors[spec.name] = value.clone()
        if takes_params:
            golden_fn(tensors, run["params"])
        else:
            golden_fn(tensors)
        runs.append((run, tensors))
    return runs


def check_contract_runs(test, block, golden_fn):
    """What every block's contract must give (docs/contract.md §8): each case's inputs and expected
    outputs differ from one seed to the next (else a port that ignores its inputs passes, GOLD020 cannot
    see it), and each case's params change the inputs the base case has."""
    runs = contract_runs(block, golden_fn)
    outputs = [s.name for s in block.build_tensor_specs() if s.is_output]
    by_case = collections.defaultdict(list)
    for run, tensors in runs:
        by_case[run["case"]].append((run, tensors))
    test.assertIn("base", by_case)
    for case, seen in by_case.items():
        test.assertGreaterEqual(len(seen), 3, case)
        first = seen[0][1]
        for run, tensors in seen[1:]:
            for name in outputs:
                test.assertFalse(torch.equal(tensors[name], first[name]), f"{run['label']}: {name} as under another seed")
            inputs = [n for n in tensors if n not in outputs]
            test.assertTrue(any(not torch.equal(tensors[n], first[n]) for n in inputs), f"{run['label']}: same inputs")
    base = by_case["base"][0][1]
    for case, seen in by_case.items():
        if case != "base":
            inputs = [n for n in base if n not in outputs]
            test.assertTrue(any(not torch.equal(seen[0][1][n], base[n]) for n in inputs), f"{case}: the base's inputs")
    return runs
