// The DSL model and everything that reads it, as `port-check lint` runs them on one unit: the
// model builder, the DSL rules, the SRAM estimator and advice, suppression comments. The input is
// up to three sibling files of one pypto_src/ separated by a line `#---next-file---`.
#include "dsl/dsl_model.h"
#include "fuzz_support.h"
#include "lint/linters.h"
#include "lint/sram_lint.h"
#include "workspace/config.h"

PORTCHECK_FUZZ_TARGET(dsl_model) {
  using namespace portcheck;
  static const char* kNames[] = {"projects/p/pypto_src/program.py", "projects/p/pypto_src/helpers.py",
                                 "projects/p/pypto_src/consts.py"};
  std::vector<std::string> pieces = fuzz::splitPieces(fuzz::asText(data, size), "#---next-file---", 3);
  PythonUnit unit;
  unit.project = "p";
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    ReadResult r = sourceFromBytes(std::move(pieces[i]), kNames[i]);
    if (r.file) unit.files.push_back(std::move(*r.file));
  }
  if (unit.files.empty()) return 0;
  static const Config config;
  LintSettings settings;
  settings.config = &config;
  dsl::ProgramModel model = dsl::buildProgramModel(unit.files);
  std::vector<Diagnostic> ds;
  lintPythonModel(unit, model, settings, ds);
  std::vector<SramRow> sram;
  std::vector<Diagnostic> es = estimatePythonModel(unit, model, settings, sram);
  ds.insert(ds.end(), es.begin(), es.end());
  applyPythonSuppressions(unit, ds);
  return 0;
}
