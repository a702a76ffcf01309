// Module constants chosen at import time: strings, dicts, dataclasses.replace and plain functions
// called for a constant's value (value_eval.cpp, function_eval.cpp), as pypto-lib's deepseek_v4_pro
// config picks its preset. What cannot be known stays unknown, never guessed.
#include <cstdlib>

#include "dsl_test_support.h"

namespace portcheck::test {
namespace {

const char* kChoosingConfig = R"(import os
import sys
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Cfg:
    name: str
    hidden: int
    rows: int = 16


SMALL = Cfg(name="small", hidden=128)
BIG = Cfg(name="big", hidden=256, rows=32)
PRESETS = {p.name: p for p in (SMALL, BIG)}
NAMES = ("big", "small")


def _variant():
    selected = os.environ.get("PORTCHECK_TEST_VARIANT", "big")
    rest = [sys.argv[0]]
    i = 1
    while i < len(sys.argv):
        token = sys.argv[i]
        if token.startswith("--variant="):
            selected = token.split("=", 1)[1]
        else:
            rest.append(token)
        i += 1
    sys.argv[:] = rest
    return selected.strip().lower()


def _raises():
    raise ValueError("no")


def _spins():
    i = 0
    while True:
        i += 1
    return i


def _pick(n, scale=2):
    if n > 100:
        return n // scale
    elif n > 10:
        return n
    return 0


VARIANT = _variant()
KERNEL = {n: replace(PRESETS[n], rows=PRESETS[n].rows * 2) for n in NAMES}
ACTIVE = KERNEL[VARIANT]
)";

const char* kChoosingUser = R"(import os
from config import ACTIVE as M, PRESETS, NAMES, _pick, _raises, _spins

HIDDEN = M.hidden
ROWS = M.rows
IS_BIG = 1 if M.name == "big" else 0
IN_NAMES = int("small" in NAMES) + int("tiny" not in NAMES)
HALF_BY_NAME = PRESETS["small"].hidden // 2
PICKED = _pick(512) + _pick(50) + _pick(5) + _pick(512, scale=4)
FROM_ENV = int(os.environ.get("PORTCHECK_TEST_SIZE", "64"))
JOINED = len("-".join(("a", "bc")))
RAISED = _raises()
SPUN = _spins()
MISSING = PRESETS["tiny"].hidden
FSTRING = len(f"{HIDDEN}")
)";

std::optional<std::int64_t> intConstant(const dsl::FileModel& m, std::string_view name) {
  const dsl::Constant* c = m.constant(name);
  if (!c || !c->value.isInt()) return std::nullopt;
  return c->value.asInt();
}

dsl::ProgramModel model() { return modelOf({{"user.py", kChoosingUser}, {"config.py", kChoosingConfig}}); }

TEST(ImportTimeValues, AConfigurationChosenByNameAtImportTimeEvaluates) {
  ::unsetenv("PORTCHECK_TEST_VARIANT");
  ::unsetenv("PORTCHECK_TEST_SIZE");
  dsl::ProgramModel pm = model();
  const dsl::FileModel& user = pm.files[0];
  // the default variant "big", its rows doubled by the replace() in the dict comprehension
  EXPECT_EQ(intConstant(user, "HIDDEN"), 256);
  EXPECT_EQ(intConstant(user, "ROWS"), 64);
  EXPECT_EQ(intConstant(user, "IS_BIG"), 1);
  EXPECT_EQ(intConstant(user, "IN_NAMES"), 2);
  EXPECT_EQ(intConstant(user, "HALF_BY_NAME"), 64);
  // 512 // 2 + 50 + 0 + 512 // 4: positional, keyword and default parameters, if / elif / return
  EXPECT_EQ(intConstant(user, "PICKED"), 256 + 50 + 0 + 128);
  EXPECT_EQ(intConstant(user, "FROM_ENV"), 64);
  EXPECT_EQ(intConstant(user, "JOINED"), 4);
}

TEST(ImportTimeValues, TheEnvironmentIsReadAsTheCompileWouldSeeIt) {
  ::setenv("PORTCHECK_TEST_VARIANT", " Small ", 1);
  ::setenv("PORTCHECK_TEST_SIZE", "32", 1);
  dsl::ProgramModel pm = model();
  ::unsetenv("PORTCHECK_TEST_VARIANT");
  ::unsetenv("PORTCHECK_TEST_SIZE");
  const dsl::FileModel& user = pm.files[0];
  EXPECT_EQ(intConstant(user, "HIDDEN"), 128);
  EXPECT_EQ(intConstant(user, "ROWS"), 32);
  EXPECT_EQ(intConstant(user, "IS_BIG"), 0);
  EXPECT_EQ(intConstant(user, "FROM_ENV"), 32);
}

TEST(ImportTimeValues, WhatCannotBeKnownStaysUnknown) {
  dsl::ProgramModel pm = model();
  const dsl::FileModel& user = pm.files[0];
  EXPECT_EQ(intConstant(user, "RAISED"), std::nullopt);   // raise
  EXPECT_EQ(intConstant(user, "SPUN"), std::nullopt);     // a loop past the step budget
  EXPECT_EQ(intConstant(user, "MISSING"), std::nullopt);  // a key the dict does not have
  EXPECT_EQ(intConstant(user, "FSTRING"), std::nullopt);  // an f-string
}

TEST(ImportTimeValues, AnUnknownVariantSelectsNothing) {
  ::setenv("PORTCHECK_TEST_VARIANT", "medium", 1);
  dsl::ProgramModel pm = model();
  ::unsetenv("PORTCHECK_TEST_VARIANT");
  EXPECT_EQ(intConstant(pm.files[0], "HIDDEN"), std::nullopt);
}

// A constant's value is cached: it must not depend on how deep the lookup that first reached it was
// (deepseek_v4_pro's decode_sparse_attn first met `M` at the end of a long chain, and every
// `M.head_dim` of the file was unknown after). The model evaluates the last constant first.
TEST(ImportTimeValues, AConstantFirstReachedAtTheEndOfALongChainKeepsItsValue) {
  std::string text = "C0 = 1\n";
  for (int i = 1; i < 60; ++i) text += "C" + std::to_string(i) + " = C" + std::to_string(i - 1) + " + 1\n";
  dsl::ProgramModel pm = modelOf({{"chain.py", text}});
  EXPECT_EQ(intConstant(pm.files[0], "C59"), 60);
  EXPECT_EQ(intConstant(pm.files[0], "C11"), 12);
  EXPECT_EQ(intConstant(pm.files[0], "C40"), 41);
}

}  // namespace
}  // namespace portcheck::test
