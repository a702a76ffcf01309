"""port-check run mode: the comparators, the figures per output, and the checks against gamed goldens.

docs/run-stage.md §3 (allclose and its fields) and docs/contract.md §2, §4, §5 (the comparators of a
CONTRACT, the statistics of every compared output, GOLD020-GOLD022). Everything here works on torch
tensors on the host and returns JSON-safe values (no NaN or infinity: None instead).
"""

from __future__ import annotations

import hashlib
import math

from port_check_contract import RunContractError

# Distance in units in the last place of the output's dtype, bucketed (docs/contract.md §2).
ULP_BUCKETS = ("0", "1", "2-3", "4-15", "16-255", ">=256")
_ULP_EDGES = ((0, 0), (1, 1), (2, 3), (4, 15), (16, 255), (256, None))


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


# --------------------------------------------------------------------------------------------------
# allclose (torch.allclose semantics, element by element): docs/run-stage.md §3


def _compare(name: str, actual, expected, rtol: float, atol: float, torch):
    """(entry, a, e, close): the report's fields for one output, and the float64 views and the mask of
    close elements the statistics reuse (None when the shapes differ)."""
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
        return entry, None, None, None
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
    return entry, a, e, close


def compare_output(name: str, actual, expected, rtol: float, atol: float, torch) -> dict:
    """Everything the report says about one output. close(a, e) = |a - e| <= atol + rtol * |e|, NaN
    never close (torch.allclose with equal_nan=False)."""
    return _compare(name, actual, expected, rtol, atol, torch)[0]


# --------------------------------------------------------------------------------------------------
# Statistics of every compared output (docs/contract.md §2)

_ULP_VIEWS = {"float32": ("int32", 0x7FFFFFFF), "float16": ("int16", 0x7FFF), "bfloat16": ("int16", 0x7FFF),
              "float64": ("int64", 0x7FFFFFFFFFFFFFFF)}


def ulp_distance(actual, expected, torch):
    """(distance, valid): per element, the distance between actual and expected in units in the last
    place of actual's dtype (int64), and the mask of pairs it means something for (neither is NaN).
    None for dtypes without a mapping (integers, float8). The float's bits, read as a sign-magnitude
    integer, become an ordered integer (negative values mirrored below zero, -0 and +0 both 0): the
    distance is their difference, so 1 is the next representable value and 0 equal values."""
    name = str(actual.dtype).replace("torch.", "")
    if name not in _ULP_VIEWS:
        return None
    int_name, mask = _ULP_VIEWS[name]
    int_dtype = getattr(torch, int_name)
    a = actual.detach().to("cpu").contiguous().reshape(-1)
    e = expected.detach().to("cpu").reshape(-1).to(actual.dtype).contiguous()

    def ordered(t):
        bits = t.view(int_dtype).to(torch.int64)
        magnitude = bits & mask
        if name == "float64":  # keep the difference of two magnitudes inside int64
            magnitude = magnitude.clamp(max=1 << 62)
        return torch.where(bits < 0, -magnitude, magnitude)

    distance = (ordered(a) - ordered(e)).abs()
    valid = ~(torch.isnan(a) | torch.isnan(e))
    return distance, valid


def ulp_histogram(actual, expected, torch):
    """{"0": n, "1": n, "2-3": n, "4-15": n, "16-255": n, ">=256": n} over the pairs without NaN, with
    the largest distance; None for dtypes without ULPs (integers)."""
    measured = ulp_distance(actual, expected, torch)
    if measured is None:
        return None, None
    distance, valid = measured
    distance = distance[valid]
    histogram = {}
    for label, (low, high) in zip(ULP_BUCKETS, _ULP_EDGES):
        inside = distance >= low if high is None else (distance >= low) & (distance <= high)
        histogram[label] = int(inside.sum())
    largest = int(distance.max()) if distance.numel() else 0
    return histogram, largest


def statistics(actual, expected, a, e, close, torch) -> dict:
    """max/mean absolute and relative error (finite pairs; relative where expected != 0), cosine
    similarity (finite pairs; 1.0 when both are all zero, 0.0 when only one is), the share of close
    elements, and for floating outputs the ULP histogram in the output's dtype."""
    n = int(a.numel())
    stats = {"max_abs_err": None, "mean_abs_err": None, "max_rel_err": None, "mean_rel_err": None,
             "cosine": None, "close_share": (int(close.sum()) / n) if n else 1.0, "ulp": None, "max_ulp": None}
    finite = torch.isfinite(a) & torch.isfinite(e)
    if bool(finite.any()):
        af, ef = a[finite], e[finite]
        diff = (af - ef).abs()
        stats["max_abs_err"] = _float_or_none(diff.max())
        stats["mean_abs_err"] = _float_or_none(diff.mean())
        nonzero = ef != 0
        if bool(nonzero.any()):
            rel = diff[nonzero] / ef[nonzero].abs()
            stats["max_rel_err"] = _float_or_none(rel.max())
            stats["mean_rel_err"] = _float_or_none(rel.mean())
        scale = float(torch.maximum(af.abs().max(), ef.abs().max()))
        if scale == 0:
            stats["cosine"] = 1.0
        else:
            af, ef = af / scale, ef / scale  # no overflow in the squares of large values
            na, ne = float(af.norm()), float(ef.norm())
            stats["cosine"] = 0.0 if na == 0 or ne == 0 else _float_or_none(
                max(-1.0, min(1.0, float((af * ef).sum()) / (na * ne))))
    if actual.dtype.is_floating_point:
        stats["ulp"], stats["max_ulp"] = ulp_histogram(actual, expected, torch)
    return stats


# --------------------------------------------------------------------------------------------------
# Comparators (docs/contract.md §4)


def compare_with(name: str, actual, expected, comparator: dict, torch) -> dict:
    """One output judged by its comparator ({"comparator": "allclose" | "pass_rate" | "max_steps", ...},
    port_check_contract.parse_comparator), with the allclose fields of compare_output and "stats"."""
    kind = comparator["comparator"]
    if kind == "max_steps":
        if actual.dtype.is_floating_point or expected.dtype.is_floating_point:
            raise RunContractError(
                f"CONTRACT['compare'][{name!r}] uses max_steps, but output {name!r} is "
                f"{str(actual.dtype).replace('torch.', '')}: max_steps compares integer (quantised) outputs")
        entry, a, e, close = _compare(name, actual, expected, 0.0, 0.0, torch)  # any difference mismatches
    else:
        entry, a, e, close = _compare(name, actual, expected, comparator["rtol"], comparator["atol"], torch)
    entry["comparator"] = kind
    if a is None:  # shapes differ: nothing compared
        entry["stats"] = None
        return entry
    entry["stats"] = statistics(actual, expected, a, e, close, torch)
    if kind == "pass_rate":
        required = comparator["pass_rate"]
        share = entry["stats"]["close_share"]
        entry["pass_rate"] = required
        entry["close_share"] = share
        entry["passed"] = share >= required
    elif kind == "max_steps":
        limits = comparator["max_steps"]
        largest = max(limits)
        steps = (actual.detach().to("cpu").reshape(-1).to(torch.int64)
                 - expected.detach().to("cpu").reshape(-1).to(torch.int64)).abs()
        counts = torch.bincount(steps.clamp(max=largest + 1), minlength=largest + 2) if steps.numel() else None
        step_counts = {}
        for k in range(1, largest + 1):
            found = int(counts[k]) if counts is not None else 0
            if found or k in limits:
                step_counts[str(k)] = found
        beyond = int(counts[largest + 1]) if counts is not None else 0
        step_counts[f">{largest}"] = beyond
        entry["max_steps"] = {str(k): n for k, n in sorted(limits.items())}
        entry["step_counts"] = step_counts
        entry["max_step"] = int(steps.max()) if steps.numel() else 0
        # A step the contract does not list, below its largest key, is allowed 0 times.
        entry["passed"] = beyond == 0 and all(int(step_counts.get(str(k), 0)) <= limits.get(k, 0)
                                              for k in range(1, largest + 1))
    if kind != "allclose":
        entry["verdict"] = "pass" if entry["passed"] else ("never_written" if entry["never_written"] else "mismatch")
    return entry


# --------------------------------------------------------------------------------------------------
# What the checks against gamed goldens need of one tensor, and the checks (docs/contract.md §5)

_INT_OF_SIZE = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}


def _as_ints(t, torch):
    """The tensor's elements as same-sized integers (bit patterns), flat and contiguous."""
    flat = t.detach().to("cpu").contiguous().reshape(-1)
    int_name = _INT_OF_SIZE.get(flat.element_size())
    if int_name is None or flat.dtype == getattr(torch, int_name):
        return flat
    return flat.view(getattr(torch, int_name))


def tensor_digest(t, torch) -> str:
    """sha256 of the tensor's dtype, shape and bytes: equal digests are equal bit for bit."""
    digest = hashlib.sha256(f"{t.dtype}|{list(t.shape)}|".encode())
    flat = t.detach().to("cpu").contiguous().reshape(-1)
    if flat.numel():
        data = flat.view(torch.uint8) if flat.dtype != torch.uint8 else flat
        try:
            digest.update(data.numpy().tobytes())
        except Exception:  # noqa: BLE001 - torch built without numpy
            digest.update(bytes(data.tolist()))
    return digest.hexdigest()


def constant_value(t, torch):
    """The one value every element holds (as Python prints it), or None when they differ or there are
    fewer than 2 elements."""
    if t.numel() < 2:
        return None
    bits = _as_ints(t, torch)
    if not bool((bits == bits[0]).all()):
        return None
    value = t.detach().to("cpu").reshape(-1)[0]
    return repr(value.item()) if value.dtype != torch.bfloat16 else repr(float(value))


def tensor_facts(t, torch) -> dict:
    return {"digest": tensor_digest(t, torch), "constant": constant_value(t, torch)}


def gaming_findings(records: list[dict], outputs: list[str]) -> list[dict]:
    """GOLD020-GOLD022 over the compared case runs. A record: {"label": "base/7", "case": "base",
    "inputs": digest of every input (tensors and scalars, as generated), "input_tensors": {name: facts},
    "outputs": {name: {"actual": facts, "golden": facts, "never_written": bool}}}. An output left
    unwritten is GOLD002's, not these checks'."""
    findings = []
    for out in outputs:
        # GOLD020: bit-identical under two seeds of one case whose inputs and golden outputs differ.
        by_case: dict[str, list[dict]] = {}
        for rec in records:
            if out in rec["outputs"] and not rec["outputs"][out]["never_written"]:
                by_case.setdefault(rec["case"], []).append(rec)
        for case, runs in by_case.items():
            groups: dict[str, list[dict]] = {}
            for rec in runs:
                groups.setdefault(rec["outputs"][out]["actual"]["digest"], []).append(rec)
            for same in groups.values():
                pairs = [(x, y) for i, x in enumerate(same) for y in same[i + 1:]
                         if x["inputs"] != y["inputs"]
                         and x["outputs"][out]["golden"]["digest"] != y["outputs"][out]["golden"]["digest"]]
                if pairs:
                    involved = {id(r) for pair in pairs for r in pair}
                    labels = [r["label"] for r in same if id(r) in involved]
                    findings.append({
                        "rule": "GOLD020", "output": out, "cases": labels, "input": None,
                        "detail": f"'{out}' is the same bit for bit under {', '.join(labels)}, whose inputs and "
                                  "golden outputs differ: it does not depend on its inputs"})
        # GOLD021: bit-identical to an input (same shape and dtype) the golden's output is not equal to.
        copied: dict[str, list[str]] = {}
        for rec in records:
            facts = rec["outputs"].get(out)
            if facts is None or facts["never_written"]:
                continue
            for name, given in rec["input_tensors"].items():
                if name == out or given["constant"] is not None:
                    continue  # its own initial value, or a constant buffer (GOLD022 / GOLD002 say it)
                if facts["actual"]["digest"] == given["digest"] and facts["golden"]["digest"] != given["digest"]:
                    copied.setdefault(name, []).append(rec["label"])
        for name, labels in copied.items():
            findings.append({
                "rule": "GOLD021", "output": out, "cases": labels, "input": name,
                "detail": f"'{out}' equals the input '{name}' bit for bit in {', '.join(labels)}, where the "
                          "golden's output does not: the output is a copy of an input"})
        # GOLD022: all one value where the golden's output is not.
        constant: list[str] = []
        values: list[str] = []
        for rec in records:
            facts = rec["outputs"].get(out)
            if facts is None or facts["never_written"]:
                continue
            if facts["actual"]["constant"] is not None and facts["golden"]["constant"] is None:
                constant.append(rec["label"])
                values.append(facts["actual"]["constant"])
        if constant:
            shown = ", ".join(sorted(set(values))[:3])
            findings.append({
                "rule": "GOLD022", "output": out, "cases": constant, "input": None,
                "detail": f"every element of '{out}' is one value ({shown}) in {', '.join(constant)}, where the "
                          "golden's output varies"})
    return findings


def json_safe(value):
    """value with NaN and infinities replaced by None, tuples as lists, anything else JSON cannot hold as
    its str()."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return str(value)
