// Pass dumps (passes_dump/NN_after_<Pass>.py, the AllocateMemoryAddr SRAM source): the dump parser,
// the per-space usage, packing and overflow attribution, and the gcc-style passes_dump/*.log warnings.
#include "compile_fuzz_support.h"
#include "compiler/memory_dump_parser.h"
#include "compiler/sram_usage.h"
#include "compiler/warning_parser.h"
#include "fuzz_support.h"

PORTCHECK_FUZZ_TARGET(pass_dump) {
  using namespace portcheck;
  std::string text(fuzz::asText(data, size));
  PassDump dump = parsePassDump(text, "AllocateMemoryAddr");
  for (const DumpFunction& fn : dump.functions) {
    (void)reserveSpace(fn);
    for (const SpaceUsage& u : spaceUsage(fn, nullptr)) (void)toSramRow(u, "p", Platform::A2A3);
    for (const char* space : {"Vec", "Mat", "Left", "Right", "Acc"}) (void)packedBytes(fn, space);
  }
  for (const char* space : {"Vec", "Mat", "Acc"}) (void)attributeOverflow(dump, space, 262144, 196608);
  (void)parsePassLog(text, "build/port-check/p/a2a3/passes_dump/34_after_MemoryReuse.log", fuzz::fuzzPaths());
  return 0;
}
