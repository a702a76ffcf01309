"""port-check run mode: golden.py's CONTRACT read at run time, checked, and expanded into case runs;
and the store of frozen goldens.

docs/contract.md §1 (the fields), §2 (how a case runs), §4 (the comparators) and §6 (frozen goldens).
The linter reads the same dict from the source (PROJ rules); here it is the module's attribute, so a
contract the linter accepts and one the run accepts are the same literal.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field

KINDS = ("elementwise", "reduction", "norm", "matmul", "mlp", "softmax", "attention", "quantize", "routing",
         "moe", "other")
CATEGORIES = ("base", "tail", "prime", "edge", "small", "large", "asymmetric", "zero", "inf", "neg_inf", "nan")
KEYS = ("kind", "seeds", "cases", "masked", "shapes", "compare")
CASE_ID = re.compile(r"[A-Za-z0-9_.-]+\Z")
FROZEN_SCHEMA = "port-check-frozen-golden/2"  # 2: the adapter code that makes the inputs is in the key


class RunContractError(Exception):
    """golden.py does not provide what a run needs (no inputs, no golden function, unknown output, a
    CONTRACT that is not one)."""


@dataclass
class Contract:
    kind: str
    seeds: list[int]
    cases: list[tuple[str, str, dict]]  # (ID, category, params), in the order golden.py gives them
    masked: bool = False
    shapes: str | None = None
    compare: dict[str, dict] = field(default_factory=dict)  # output -> parse_comparator's dict


def _where(*path) -> str:
    return "CONTRACT" + "".join(f"[{p!r}]" for p in path)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def read_contract(module) -> Contract | None:
    """golden.py's CONTRACT, checked; None when it has none. Raises RunContractError naming the key."""
    if module is None or not hasattr(module, "CONTRACT"):
        return None
    seed = getattr(module, "SEED", None)
    return parse_contract(getattr(module, "CONTRACT"), seed if _is_int(seed) else None)


def parse_contract(raw, seed_base: int | None = None) -> Contract:
    if not isinstance(raw, dict):
        raise RunContractError(f"CONTRACT must be a dict, got {type(raw).__name__}")
    unknown = [k for k in raw if k not in KEYS]
    if unknown:
        raise RunContractError(f"CONTRACT has unknown key {unknown[0]!r} (keys: {', '.join(KEYS)})")
    for key in ("kind", "seeds", "cases"):
        if key not in raw:
            raise RunContractError(f"CONTRACT lacks {key!r}, which is required")
    kind = raw["kind"]
    if kind not in KINDS:
        raise RunContractError(f"{_where('kind')} is {kind!r}, not one of {', '.join(KINDS)}")
    seeds = raw["seeds"]
    if _is_int(seeds):
        if seeds < 3:
            raise RunContractError(f"{_where('seeds')} is {seeds}: at least 3 seeds")
        start = seed_base if seed_base is not None else 0
        seeds = [start + i for i in range(seeds)]
    elif isinstance(seeds, (list, tuple)):
        if not all(_is_int(s) for s in seeds):
            raise RunContractError(f"{_where('seeds')} must hold integers, got {list(seeds)!r}")
        if len(set(seeds)) != len(seeds):
            raise RunContractError(f"{_where('seeds')} repeats a seed: {list(seeds)!r}")
        if len(seeds) < 3:
            raise RunContractError(f"{_where('seeds')} has {len(seeds)} seed(s): at least 3 distinct seeds")
        seeds = list(seeds)
    else:
        raise RunContractError(f"{_where('seeds')} must be a list of at least 3 integers or an integer N >= 3, "
                               f"got {seeds!r}")
    masked = raw.get("masked", False)
    if not isinstance(masked, bool):
        raise RunContractError(f"{_where('masked')} must be True or False, got {masked!r}")
    shapes = raw.get("shapes")
    if shapes is not None and shapes not in ("fixed", "parametric"):
        raise RunContractError(f"{_where('shapes')} must be \"fixed\" or \"parametric\", got {shapes!r}")
    cases = _parse_cases(raw["cases"])
    compare = raw.get("compare", {})
    if not isinstance(compare, dict):
        raise RunContractError(f"{_where('compare')} must be a dict of output name -> comparator, "
                               f"got {type(compare).__name__}")
    parsed = {str(name): parse_comparator(str(name), spec) for name, spec in compare.items()}
    return Contract(kind=kind, seeds=seeds, cases=cases, masked=masked, shapes=shapes, compare=parsed)


def _parse_cases(cases) -> list[tuple[str, str, dict]]:
    if not isinstance(cases, dict) or not cases:
        raise RunContractError(f"{_where('cases')} must be a non-empty dict of case ID -> "
                               "{\"category\": ..., \"params\": {...}}")
    parsed = []
    for case_id, case in cases.items():
        if not isinstance(case_id, str) or not CASE_ID.match(case_id):
            raise RunContractError(f"{_where('cases')} has the case ID {case_id!r}: IDs are [A-Za-z0-9_.-]+")
        if not isinstance(case, dict):
            raise RunContractError(f"{_where('cases', case_id)} must be a dict with a 'category', got {case!r}")
        unknown = [k for k in case if k not in ("category", "params")]
        if unknown:
            raise RunContractError(f"{_where('cases', case_id)} has unknown key {unknown[0]!r} "
                                   "(keys: category, params)")
        category = case.get("category")
        if category not in CATEGORIES:
            raise RunContractError(f"{_where('cases', case_id, 'category')} is {category!r}, not one of "
                                   f"{', '.join(CATEGORIES)}")
        params = case.get("params", {})
        if not isinstance(params, dict):
            raise RunContractError(f"{_where('cases', case_id, 'params')} must be a dict, got {params!r}")
        reserved = [k for k in params if k in ("seed", "case", "category")]
        if reserved:
            raise RunContractError(f"{_where('cases', case_id, 'params')} sets {reserved[0]!r}, which the run sets "
                                   "for every case")
        parsed.append((case_id, category, dict(params)))
    if not any(category == "base" for _, category, _ in parsed):
        raise RunContractError(f"{_where('cases')} has no case of category 'base' (write "
                               "\"base\": {\"category\": \"base\"})")
    return parsed


def parse_comparator(name: str, spec) -> dict:
    """{"comparator": "allclose", "rtol", "atol"} (None: the output's RTOL/ATOL or TOLERANCES),
    {"comparator": "pass_rate", "rtol", "atol", "pass_rate"} or {"comparator": "max_steps",
    "max_steps": {k: n}}."""
    where = _where("compare", name)
    if not isinstance(spec, dict):
        raise RunContractError(f"{where} must be a dict ({{\"rtol\": r, \"atol\": a}}, with \"pass_rate\": p, "
                               f"or {{\"max_steps\": {{\"1\": n}}}}), got {spec!r}")
    if "max_steps" in spec:
        extra = [k for k in spec if k != "max_steps"]
        if extra:
            raise RunContractError(f"{where} mixes max_steps with {extra[0]!r}: max_steps stands alone")
        steps = spec["max_steps"]
        if not isinstance(steps, dict) or not steps:
            raise RunContractError(f"{_where('compare', name, 'max_steps')} must be a non-empty dict of step -> "
                                   f"count ({{\"1\": n1, \"2\": n2}}), got {steps!r}")
        limits = {}
        for key, count in steps.items():
            try:
                step = int(str(key))
            except ValueError:
                step = 0
            if step < 1 or not _is_int(count) or count < 0:
                raise RunContractError(f"{_where('compare', name, 'max_steps', key)}: steps are integers >= 1 and "
                                       f"their counts integers >= 0, got {key!r}: {count!r}")
            limits[step] = count
        return {"comparator": "max_steps", "max_steps": limits}
    unknown = [k for k in spec if k not in ("rtol", "atol", "pass_rate")]
    if unknown:
        raise RunContractError(f"{where} has unknown key {unknown[0]!r} (keys: rtol, atol, pass_rate; or max_steps)")
    parsed = {"comparator": "pass_rate" if "pass_rate" in spec else "allclose",
              "rtol": None, "atol": None}
    for key in ("rtol", "atol"):
        if key in spec:
            value = spec[key]
            if not _is_number(value) or not value >= 0:
                raise RunContractError(f"{_where('compare', name, key)} must be a number >= 0, got {value!r}")
            parsed[key] = float(value)
    if "pass_rate" in spec:
        rate = spec["pass_rate"]
        if not _is_number(rate) or not 0 < rate <= 1:
            raise RunContractError(f"{_where('compare', name, 'pass_rate')} must be a share 0 < p <= 1, got {rate!r}")
        parsed["pass_rate"] = float(rate)
    return parsed


def check_compare_names(contract: Contract, outputs: list[str]) -> None:
    unknown = [n for n in contract.compare if n not in outputs]
    if unknown:
        raise RunContractError(f"{_where('compare', unknown[0])} names no output (outputs: {', '.join(outputs)})")


def expand(contract: Contract, default_params: dict, only: str | None = None) -> list[dict]:
    """The case runs, cases in golden.py's order and each case's seeds in the contract's order:
    {"case", "category", "seed", "label" ("ID/seed"), "params"}. `only` is a case ID, or "ID/seed" for one
    run of it."""
    cases = contract.cases
    seeds = contract.seeds
    if only:
        case_id, _, seed_text = only.partition("/")
        known = [c for c, _, _ in cases]
        if case_id not in known:
            raise RunContractError(f"--case {only}: CONTRACT['cases'] has no case {case_id!r} "
                                   f"(cases: {', '.join(known)})")
        cases = [c for c in cases if c[0] == case_id]
        if seed_text:
            try:
                seed = int(seed_text)
            except ValueError:
                seed = None
            if seed not in seeds:
                raise RunContractError(f"--case {only}: {seed_text!r} is not one of the contract's seeds "
                                       f"({', '.join(str(s) for s in seeds)})")
            seeds = [seed]
    runs = []
    for case_id, category, params in cases:
        for seed in seeds:
            merged = {**(default_params or {}), **params, "seed": seed, "case": case_id, "category": category}
            runs.append({"case": case_id, "category": category, "seed": seed, "label": f"{case_id}/{seed}",
                         "params": merged})
    return runs


# --------------------------------------------------------------------------------------------------
# Frozen goldens (docs/contract.md §6)


def key_sources(golden_path: str | None, original_dir: str | None) -> list[tuple[str, str]]:
    """(label, path) of the files a frozen golden's key covers: golden.py and every .py file under the
    port's original/ folder (sorted)."""
    sources = []
    if golden_path and os.path.isfile(golden_path):
        sources.append(("golden.py", golden_path))
    # How the adapter calls generate_inputs / compute_golden is part of what a frozen golden froze: a frozen
    # case made by other calling code (one that dropped the case's params, say) must not be replayed.
    caller = os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_check_golden.py")
    if os.path.isfile(caller):
        sources.append(("adapter/port_check_golden.py", caller))
    if original_dir and os.path.isdir(original_dir):
        found = []
        for folder, dirs, files in os.walk(original_dir):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    found.append((os.path.relpath(path, original_dir).replace(os.sep, "/"), path))
        sources += [(f"original/{label}", path) for label, path in sorted(found)]
    return sources


def frozen_key(sources: list[tuple[str, str]], params_json: str, seed: int) -> str:
    digest = hashlib.sha256(FROZEN_SCHEMA.encode() + b"\0")
    for label, path in sources:
        with open(path, "rb") as handle:
            data = handle.read()
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)
    digest.update(f"params\0{params_json}\0seed\0{seed}\0".encode())
    return digest.hexdigest()


def params_json(params: dict, json_safe) -> str:
    return json.dumps(json_safe(params), sort_keys=True, separators=(",", ":"))


def frozen_load(path: str, torch):
    """(data, note): the frozen inputs and expected outputs, or (None, why not) for a missing or unreadable
    file (a miss: the case is computed again and saved, never replayed wrong). The caller checks that
    they are golden.py's outputs."""
    if not os.path.isfile(path):
        return None, ""
    try:
        try:
            data = torch.load(path, map_location="cpu", weights_only=True)
        except TypeError:  # torch without weights_only
            data = torch.load(path, map_location="cpu")
        if not isinstance(data, dict) or data.get("schema") != FROZEN_SCHEMA:
            raise ValueError("not a frozen golden of this schema")
        inputs = [(str(n), v) for n, v in data["inputs"]]
        expected = data["expected"]
        if not isinstance(expected, dict):
            raise ValueError("its expected outputs are not a dict")
    except Exception as exc:  # noqa: BLE001 - any unreadable file is a miss
        return None, f"frozen golden {os.path.basename(path)} unreadable ({type(exc).__name__}: {exc}): recomputed"
    return {"inputs": inputs, "expected": expected}, ""


def frozen_save(path: str, inputs: list, expected: dict, meta: dict, torch) -> None:
    """Written to a temporary file, then renamed: a reader sees the whole file or none."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        torch.save({"schema": FROZEN_SCHEMA, **meta, "inputs": list(inputs), "expected": dict(expected)}, tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
