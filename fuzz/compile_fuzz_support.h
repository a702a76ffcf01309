#pragma once
// A compile record whose path map looks like the driver's (placeholders for the staged sources, the
// output folder and the pypto checkout), so mapped paths go through the same code as in a real run.
#include "compiler/compile_record.h"
#include "compiler/path_mapper.h"

namespace portcheck::fuzz {

inline const CompileRecord& fuzzRecord() {
  static const CompileRecord record = [] {
    CompileRecord r;
    r.project = "p";
    r.source_root = "/nonexistent/port-check-fuzz/src";
    r.source_root_display = "projects/p/pypto_src";
    r.out_dir = "/nonexistent/port-check-fuzz/out";
    r.out_dir_display = "build/port-check/p/a2a3";
    r.path_map = {{"<case>/", "projects/p/pypto_src/"}, {"<out>/", "build/port-check/p/a2a3/"}, {"<pypto>/", "<pypto>/"}};
    return r;
  }();
  return record;
}

inline const PathMapper& fuzzPaths() {
  static const PathMapper paths(fuzzRecord());
  return paths;
}

}  // namespace portcheck::fuzz
