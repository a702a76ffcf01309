"""What the Python-driven tests share: named checks that print ok/FAIL and are counted, and skipping
(exit status 77, which ctest reports as skipped) with a message naming what is missing."""
import sys

SKIP = 77


def skip(message):
    print(f"SKIPPED: {message}")
    sys.exit(SKIP)


def last_line(result):
    """The last line a finished subprocess wrote (stderr first), for a one-line reason."""
    lines = (result.stderr or result.stdout or "").strip().splitlines()
    return lines[-1] if lines else f"exit status {result.returncode}"


class Checks:
    """checks(name, ok, detail): prints "ok: name" or "FAIL: name" and the detail; status() is the exit status."""

    def __init__(self, detail_limit=None):
        self.failures = []
        self.detail_limit = detail_limit

    def __call__(self, name, ok, detail=""):
        print(("ok: " if ok else "FAIL: ") + name)
        if not ok:
            self.failures.append(name)
            if detail:
                print(("    " + str(detail).replace("\n", "\n    "))[:self.detail_limit])
        return ok

    def status(self):
        print(f"{len(self.failures)} failed" if self.failures else "all passed")
        return 1 if self.failures else 0
