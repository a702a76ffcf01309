// The C++ kernel model and the kernel rules, as `port-check lint` runs them on one .cpp file.
#include "fuzz_support.h"
#include "kernel/kernel_model.h"
#include "kernel/kernel_source.h"
#include "lint/linters.h"
#include "parse/syntax_tree.h"
#include "workspace/config.h"

PORTCHECK_FUZZ_TARGET(kernel_model) {
  using namespace portcheck;
  ReadResult r = sourceFromBytes(std::string(fuzz::asText(data, size)), "projects/p/kernels/kernel.cpp");
  if (!r.file) return 0;
  static const Config config;
  LintSettings settings;
  settings.config = &config;
  (void)lintKernelFile(*r.file, settings);
  return 0;
}
