#pragma once
// A workspace for run-stage tests: a stand-in PyPTO checkout (with the runtime's simpler_setup/) and
// driver settings whose interpreter is tests/fixtures/run/fake-run-python.sh, which answers each run
// with the recorded result named by FAKE_RUN in the program's folder.
#include <chrono>
#include <string>

#include "compiler/compile_driver.h"
#include "test_support.h"

namespace portcheck::test {

inline std::string fakeRunPython() { return fixturesDir() + "/run/fake-run-python.sh"; }

struct RunWorkspace {
  TempDir ws;
  DriverSettings settings;

  explicit RunWorkspace(std::chrono::milliseconds timeout = std::chrono::milliseconds(1500)) {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("pypto/python/pypto/__init__.py", "");
    ws.write("pypto/runtime/simpler_setup/__init__.py", "");
    settings.toolchain.found = true;
    settings.toolchain.pypto_root = ws / "pypto";
    settings.toolchain.revision = "fake123";
    settings.toolchain.python = fakeRunPython();
    settings.workspace_root = ws.path();
    settings.cache_root = ws / ".port-check-cache";
    settings.adapter_script = ws.write("adapter/port_check_adapter.py", "# not run by the fake\n");
    settings.timeout = timeout;
    settings.environment = {{"PATH", "/usr/bin:/bin"}};
  }

  // projects/<name>/pypto_src whose runs answer with the recorded result `run_mode`.
  CompileTarget project(const std::string& name, const std::string& run_mode) {
    ws.write("projects/" + name + "/pypto_src/FAKE_RUN", run_mode + "\n");
    ws.write("projects/" + name + "/pypto_src/golden.py", "x = 1\n");
    CompileTarget t;
    t.name = name;
    t.source_root = ws / ("projects/" + name + "/pypto_src");
    t.source_root_display = "projects/" + name + "/pypto_src";
    t.display_file = t.source_root_display + "/golden.py";
    return t;
  }
};

// A workspace for running the port-check binary on stand-in ports: a stand-in PyPTO checkout and
// projects/<name>/pypto_src answering with FAKE_RUN; args() points the binary at both.
struct CliWorkspace {
  TempDir ws;
  CliWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("pypto/python/pypto/__init__.py", "");
  }
  void project(const std::string& name, const std::string& run_mode) {
    ws.write("projects/" + name + "/pypto_src/FAKE_RUN", run_mode + "\n");
    ws.write("projects/" + name + "/pypto_src/golden.py", "x = 1\n");
  }
  std::string args() const { return "--pypto '" + (ws / "pypto").string() + "' --python '" + fakeRunPython() + "' "; }
};

}  // namespace portcheck::test
