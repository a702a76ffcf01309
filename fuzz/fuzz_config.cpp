// port-check.json: any bytes give a Config and TOOL004 problems, never a crash or an exception.
#include "fuzz_support.h"
#include "workspace/config.h"

PORTCHECK_FUZZ_TARGET(config) {
  using namespace portcheck;
  ConfigLoad load = parseConfig(std::string(fuzz::asText(data, size)), "port-check.json");
  // Exercise what the loaded settings drive: globs, per-path overrides, excludes.
  (void)load.config.excluded("projects/p/pypto_src/program.py");
  (void)load.config.settingFor("DSL101", "projects/p/pypto_src/program.py");
  for (const PathOverride& o : load.config.per_path) (void)globMatch(o.glob, "a/b/c.py");
  for (const std::string& g : load.config.exclude) (void)globMatch(g, "projects/p/kernels/k.cpp");
  return 0;
}
