// The compile driver against a stand-in interpreter (tests/fixtures/compile/fake-python.sh) that
// imitates the adapter: success, timeout, crash, garbage, no result, partial output, load errors.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <fstream>
#include <set>

#include "compiler/compile_driver.h"
#include "compiler/compile_stage.h"
#include "core/embedded_file.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct FakeWorkspace {
  test::TempDir ws;
  DriverSettings settings;

  FakeWorkspace() {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("pypto/python/pypto/__init__.py", "");
    settings.toolchain.found = true;
    settings.toolchain.pypto_root = ws / "pypto";
    settings.toolchain.revision = "fake123";
    settings.toolchain.python = test::fakeCompilePython();
    settings.workspace_root = ws.path();
    settings.cache_root = ws / ".port-check-cache";
    settings.adapter_script = ws.write("adapter/port_check_adapter.py", "# not run by the fake\n");
    settings.timeout = 1500ms;
    settings.environment = {{"PATH", "/usr/bin:/bin"},
                            {"PTOAS_ROOT", "/opt/ptoas"},
                            {"FORCE_COLOR", "1"},
                            {"PTO_BACKTRACE", "full"},
                            {"PYPTO_LOG_LEVEL", "debug"},
                            {"PYTHONPATH", "/somewhere/else"}};
  }

  CompileTarget project(const std::string& name, const std::string& mode) {
    ws.write("projects/" + name + "/pypto_src/FAKE_MODE", mode + "\n");
    ws.write("projects/" + name + "/pypto_src/golden.py", "x = 1\n");
    CompileTarget t;
    t.name = name;
    t.source_root = ws / ("projects/" + name + "/pypto_src");
    t.source_root_display = "projects/" + name + "/pypto_src";
    t.display_file = t.source_root_display + "/golden.py";
    return t;
  }

  CompileTarget programFile(const std::string& name, const std::string& mode) {
    fs::path file = ws.write("lib/" + name + ".py", "# fake-mode: " + mode + "\n@pl.jit\n");
    CompileTarget t;
    t.name = name;
    t.source_root = file.parent_path();
    t.program_file = file;
    t.source_root_display = "lib";
    t.display_file = "lib/" + name + ".py";
    return t;
  }

  DriverOutcome run(const std::string& mode) { return runCompileProcess(project(mode + "p", mode), Platform::A2A3, settings); }
};

std::vector<std::string> rules(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const auto& d : ds) out.push_back(d.rule);
  return out;
}

std::string allText(const std::vector<Diagnostic>& ds) {
  std::string text;
  for (const auto& d : ds) {
    text += d.file + ":" + std::to_string(d.line) + ": " + d.message + "\n";
    for (const auto& n : d.notes) text += "  note: " + n.message + "\n";
  }
  return text;
}

TEST(CompileDriver, SuccessIsHandedToTheAnalysisAndCacheable) {
  FakeWorkspace f;
  auto o = f.run("ok");
  EXPECT_TRUE(o.diagnostics.empty()) << allText(o.diagnostics);
  EXPECT_TRUE(o.analyze);
  EXPECT_TRUE(o.cacheable);
  EXPECT_TRUE(o.record.adapter.present);
  EXPECT_EQ(o.record.adapter.status, "ok");
  EXPECT_EQ(o.record.adapter.program, "fake_entry");
  EXPECT_EQ(o.record.adapter.extra.at("ptoas"), "skipped");
  EXPECT_EQ(o.record.exit_code, 0);
  EXPECT_TRUE(fs::exists(o.record.out_dir / "passes_dump" / "35_after_AllocateMemoryAddr.py"));
  EXPECT_EQ(o.record.out_dir_display.rfind(".port-check-cache/compile/okp-", 0), 0u) << o.record.out_dir_display;
}

TEST(CompileDriver, TimeoutIsCOMP901WithThePartialFolderAndNotCached) {
  FakeWorkspace f;
  auto start = std::chrono::steady_clock::now();
  auto o = f.run("timeout");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 8s);
  EXPECT_TRUE(o.record.timed_out);
  EXPECT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP901", "COMP905"})) << allText(o.diagnostics);
  EXPECT_NE(o.diagnostics[0].message.find("within 1500 ms"), std::string::npos) << o.diagnostics[0].message;
  EXPECT_NE(o.diagnostics[1].message.find("3 pass dumps (last: 02_after_UnrollLoops.py)"), std::string::npos)
      << o.diagnostics[1].message;
  EXPECT_FALSE(o.cacheable);
}

// A caller's cancellation (an MCP client) kills a compile that would run to its timeout: TOOL006,
// nothing analysed, nothing cached. Without it, the same compile ends in the timeout (COMP901).
TEST(CompileDriver, ACancelledCompileIsTOOL006AndNotCached) {
  FakeWorkspace f;
  f.settings.timeout = 30s;
  std::atomic<bool> cancel{false};
  f.settings.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(400ms);
    cancel = true;
  });
  auto start = std::chrono::steady_clock::now();
  auto o = f.run("timeout");
  canceller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 8s);
  EXPECT_EQ(rules(o.diagnostics), (std::vector<std::string>{"TOOL006"})) << allText(o.diagnostics);
  EXPECT_FALSE(o.record.timed_out);
  EXPECT_FALSE(o.analyze);
  EXPECT_FALSE(o.cacheable);
}

TEST(CompileDriver, ACompileNobodyCancelsRunsToItsEnd) {
  FakeWorkspace f;
  std::atomic<bool> cancel{false};
  f.settings.cancel = &cancel;
  auto o = f.run("ok");
  EXPECT_TRUE(o.diagnostics.empty()) << allText(o.diagnostics);
  EXPECT_TRUE(o.cacheable);
}

TEST(CompileDriver, ACrashBySignalIsCOMP902AndSaysItIsACompilerBug) {
  FakeWorkspace f;
  auto o = f.run("crash");
  EXPECT_EQ(o.record.signal, 11);
  EXPECT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP902", "COMP905"})) << allText(o.diagnostics);
  EXPECT_NE(o.diagnostics[0].message.find("SIGSEGV"), std::string::npos);
  EXPECT_NE(o.diagnostics[0].hint.find("compiler"), std::string::npos);
  ASSERT_FALSE(o.diagnostics[0].notes.empty());
  EXPECT_NE(o.diagnostics[0].notes[0].message.find("Segmentation fault"), std::string::npos);
  EXPECT_FALSE(o.cacheable);
}

TEST(CompileDriver, GarbageResultIsCOMP904AndTheLogTailIsCleaned) {
  FakeWorkspace f;
  auto o = f.run("garbage");
  EXPECT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP904"})) << allText(o.diagnostics);
  EXPECT_FALSE(o.record.adapter.present);
  ASSERT_FALSE(o.diagnostics[0].notes.empty());
  const std::string& note = o.diagnostics[0].notes[0].message;
  EXPECT_EQ(note.find('\x01'), std::string::npos);
  EXPECT_NE(note.find("garbage"), std::string::npos);
  EXPECT_FALSE(o.cacheable);
}

TEST(CompileDriver, AnUnknownStatusIsCOMP904) {
  FakeWorkspace f;
  auto o = f.run("badstatus");
  EXPECT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP904"}));
  EXPECT_NE(o.diagnostics[0].message.find("'exploded'"), std::string::npos);
}

TEST(CompileDriver, NoResultFileIsCOMP903) {
  FakeWorkspace f;
  auto o = f.run("noresult");
  EXPECT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP903"})) << allText(o.diagnostics);
  EXPECT_NE(o.diagnostics[0].message.find("exited with status 0 without writing its result"), std::string::npos);
}

TEST(CompileDriver, APartialOutputFolderIsReportedWithTheMissingResult) {
  FakeWorkspace f;
  auto o = f.run("partial");
  EXPECT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP903", "COMP905"})) << allText(o.diagnostics);
  EXPECT_NE(o.diagnostics[0].message.find("status 137"), std::string::npos);
  EXPECT_NE(o.diagnostics[1].message.find("no kernels/"), std::string::npos);
}

TEST(CompileDriver, ALoadErrorPointsIntoTheUsersFileWithMappedPaths) {
  FakeWorkspace f;
  auto o = f.run("load_error");
  ASSERT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP906"})) << allText(o.diagnostics);
  const Diagnostic& d = o.diagnostics[0];
  EXPECT_EQ(d.file, "projects/load_errorp/pypto_src/golden.py");
  EXPECT_EQ(d.line, 3);
  EXPECT_NE(d.message.find("ImportError: cannot import name 'missing_helper'"), std::string::npos);
  std::string text = allText(o.diagnostics);
  EXPECT_EQ(text.find(f.ws.path().string()), std::string::npos) << "absolute path leaked:\n" << text;
  EXPECT_NE(text.find("File \"projects/load_errorp/pypto_src/golden.py\", line 3"), std::string::npos) << text;
  EXPECT_FALSE(o.analyze);
  EXPECT_TRUE(o.cacheable);
}

TEST(CompileDriver, AmbiguousProgramAndBrokenToolchainHaveTheirOwnRules) {
  FakeWorkspace f;
  auto a = f.run("ambiguous");
  EXPECT_EQ(rules(a.diagnostics), (std::vector<std::string>{"COMP907"}));
  EXPECT_NE(a.diagnostics[0].hint.find("ENTRY"), std::string::npos);
  auto t = f.run("toolchain");
  ASSERT_EQ(rules(t.diagnostics), (std::vector<std::string>{"COMP909"}));
  EXPECT_EQ(t.diagnostics[0].source, Stage::Tool);
  EXPECT_NE(t.diagnostics[0].message.find("No module named 'torch'"), std::string::npos);
  EXPECT_NE(t.diagnostics[0].message.find("<pypto>/python"), std::string::npos) << t.diagnostics[0].message;
  EXPECT_FALSE(t.cacheable);
}

TEST(CompileDriver, AMissingInterpreterIsCOMP909) {
  FakeWorkspace f;
  f.settings.toolchain.python = "port-check-no-such-python";
  auto o = f.run("ok");
  ASSERT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP909"}));
  EXPECT_NE(o.diagnostics[0].message.find("could not be started"), std::string::npos);
}

TEST(CompileDriver, TheChildEnvironmentIsControlled) {
  FakeWorkspace f;
  auto o = f.run("env");
  const std::string& log = o.record.log;
  EXPECT_NE(log.find("PYTHONPATH=" + (f.ws.path() / "pypto" / "python").string() + ":/somewhere/else\n"),
            std::string::npos)
      << "the caller's PYTHONPATH is kept, after PyPTO's\n" << log;
  EXPECT_NE(log.find("NO_COLOR=1"), std::string::npos);
  EXPECT_NE(log.find("PTOAS_ROOT=/opt/ptoas"), std::string::npos) << "PTOAS_ROOT passes through";
  EXPECT_NE(log.find("PYPTO_LOG_LEVEL=debug"), std::string::npos) << "PYPTO_LOG_LEVEL is left alone";
  EXPECT_NE(log.find("FORCE_COLOR=<unset>"), std::string::npos);
  EXPECT_NE(log.find("PTO_BACKTRACE=<unset>"), std::string::npos) << "an invalid PTO_BACKTRACE breaks the parser hook";
  EXPECT_NE(log.find("CWD=" + fs::canonical(f.ws / "projects/envp/pypto_src").string()), std::string::npos) << log;
}

TEST(CompileDriver, PathMapCoversSourcesOutputPyptoAndAdapter) {
  FakeWorkspace f;
  auto o = f.run("ok");
  auto has = [&](const std::string& from, const std::string& to) {
    for (const auto& [a, b] : o.record.path_map)
      if (a == from && b == to) return true;
    return false;
  };
  EXPECT_TRUE(has((f.ws / "projects/okp/pypto_src").string() + "/", "projects/okp/pypto_src/"));
  EXPECT_TRUE(has((f.ws / "pypto").string() + "/", "<pypto>/"));
  EXPECT_TRUE(has(o.record.out_dir.string() + "/", o.record.out_dir_display + "/"));
  EXPECT_TRUE(has((f.ws / "adapter").string() + "/", "<port-check-adapter>/"));
}

TEST(CompileDriver, EachCompileStartsFromAFreshOutputFolder) {
  FakeWorkspace f;
  auto t = f.project("fresh", "ok");
  auto first = runCompileProcess(t, Platform::A2A3, f.settings);
  test::TempDir unused;
  std::ofstream(first.record.out_dir / "stale.txt") << "old";
  auto second = runCompileProcess(t, Platform::A2A3, f.settings);
  EXPECT_FALSE(fs::exists(second.record.out_dir / "stale.txt"));
  auto a5 = runCompileProcess(t, Platform::A5, f.settings);
  EXPECT_NE(a5.record.out_dir, second.record.out_dir) << "one folder per platform";
}

TEST(AdapterResult, ReadsTheFieldsAndKeepsTheRestAsStrings) {
  AdapterResult r;
  std::string error;
  ASSERT_TRUE(readAdapterResult(R"({"status": "compile_error", "exception_type": "ValueError",
      "exception_message": "Vec buffer usage", "traceback": "tb", "output_dir": "/o", "program": "p",
      "ptoas": "ran", "parser_line": "17", "count": 3})", r, error)) << error;
  EXPECT_TRUE(r.present);
  EXPECT_EQ(r.status, "compile_error");
  EXPECT_EQ(r.exception_type, "ValueError");
  EXPECT_EQ(r.program, "p");
  EXPECT_EQ(r.extra.at("ptoas"), "ran");
  EXPECT_EQ(r.extra.at("count"), "3");
  EXPECT_FALSE(readAdapterResult("{\"status\": ", r, error));
  EXPECT_FALSE(readAdapterResult("[1]", r, error));
  EXPECT_FALSE(readAdapterResult("{\"program\": \"x\"}", r, error));
}

TEST(CompileDriver, TheCallersPythonPathIsExtendedNotReplaced) {
  Toolchain toolchain;
  toolchain.pypto_root = "/opt/pypto";
  auto env = adapterEnvironment({{"PYTHONPATH", "/src/pypto-lib:/src/helpers"}}, toolchain);
  EXPECT_EQ(env["PYTHONPATH"], "/opt/pypto/python:/src/pypto-lib:/src/helpers");
  EXPECT_EQ(adapterEnvironment({}, toolchain)["PYTHONPATH"], "/opt/pypto/python");
  EXPECT_EQ(adapterEnvironment({{"PYTHONPATH", ""}}, toolchain)["PYTHONPATH"], "/opt/pypto/python");
}

TEST(CompileDriver, ProgramsComeFromTheResultAndTheirLogFromTheAdaptersLines) {
  AdapterResult r;
  std::string error;
  ASSERT_TRUE(readAdapterResult(R"({"status": "ok", "programs": "add\t/o/add\nscale#2\t/o/scale-2"})", r, error));
  std::string log = "importing\n[port-check] compiling add into /o/add\nwarning: a\n"
                    "[port-check] compiling scale#2 into /o/scale-2\nwarning: b\n";
  auto programs = compiledPrograms(r, log);
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs[0].name, "add");
  EXPECT_EQ(programs[0].out_dir, fs::path("/o/add"));
  EXPECT_EQ(programs[0].log, "importing\n[port-check] compiling add into /o/add\nwarning: a\n");
  EXPECT_EQ(programs[1].name, "scale#2");
  EXPECT_EQ(programs[1].log, "[port-check] compiling scale#2 into /o/scale-2\nwarning: b\n");
  // A process that died before its result: the lines say what was being compiled.
  programs = compiledPrograms(AdapterResult{}, log);
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs[1].out_dir, fs::path("/o/scale-2"));
  // One program in the output folder itself: no list.
  ASSERT_TRUE(readAdapterResult(R"({"status": "ok"})", r, error));
  EXPECT_TRUE(compiledPrograms(r, "plain log\n").empty());
}

TEST(CompileStage, EachProgramMainCompilesIsAnalysedInItsOwnFolderAndNamed) {
  FakeWorkspace f;
  auto target = f.programFile("pair", "two_programs");
  bool cacheable = false;
  CompileOutcome o = compileOnce(target, Platform::A2A3, f.settings, {}, cacheable);
  EXPECT_TRUE(o.succeeded) << "COMP910 is a warning";
  std::set<std::string> projects;
  for (const SramRow& row : o.sram) projects.insert(row.project);
  EXPECT_EQ(projects, (std::set<std::string>{"pair:first", "pair:second"}));
  // The fixture dump uses little of its Vec space: one MEM102 per program, each saying which.
  ASSERT_EQ(rules(o.diagnostics), (std::vector<std::string>{"COMP910", "MEM102", "MEM102"}));
  ASSERT_FALSE(o.diagnostics[2].notes.empty());
  EXPECT_EQ(o.diagnostics[1].notes.back().message, "in program 'first'");
  EXPECT_EQ(o.diagnostics[2].notes.back().message, "in program 'second'");
  EXPECT_EQ(o.diagnostics[0].severity, Severity::Warning);
  EXPECT_NE(o.diagnostics[0].message.find("third was not compiled"), std::string::npos);
  EXPECT_NE(o.diagnostics[0].hint.find("ENTRY"), std::string::npos);
}

TEST(CompileStage, AfterACrashTheProgramsCompiledSoFarStillGiveFigures) {
  FakeWorkspace f;
  bool cacheable = true;
  CompileOutcome o = compileOnce(f.programFile("pair", "two_programs_crash"), Platform::A2A3, f.settings, {}, cacheable);
  EXPECT_FALSE(cacheable);
  EXPECT_EQ(rules(o.diagnostics)[0], "COMP902");
  std::set<std::string> projects;
  for (const SramRow& row : o.sram) projects.insert(row.project);
  EXPECT_EQ(projects, (std::set<std::string>{"pair:first", "pair:second"}));
}

TEST(AdapterInstall, WritesTheEmbeddedAdapterOnceAndReusesIt) {
  test::TempDir cache;
  std::string error;
  auto script = installAdapter(cache.path(), error);
  ASSERT_TRUE(script) << error;
  EXPECT_EQ(script->filename(), "port_check_adapter.py");
  std::string text = test::readFile(*script);
  EXPECT_NE(text.find("ADAPTER_VERSION"), std::string::npos);
  EXPECT_EQ(text, test::readFile(test::sourceDir() + "/harness/adapter/port_check_adapter.py"))
      << "the embedded adapter is the source file";
  auto again = installAdapter(cache.path(), error);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *script);
}

// Threads of one process (tune's parallel compiles) installing into a fresh cache at once all get
// the one installed adapter: none removes another's half-written folder.
TEST(AdapterInstall, ThreadsInstallingAtOnceAllSucceed) {
  for (int round = 0; round < 5; ++round) {
    test::TempDir cache;
    std::vector<std::optional<std::filesystem::path>> scripts(8);
    std::vector<std::string> errors(scripts.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < scripts.size(); ++i)
      threads.emplace_back([&, i] { scripts[i] = installAdapter(cache.path(), errors[i]); });
    for (std::thread& t : threads) t.join();
    for (std::size_t i = 0; i < scripts.size(); ++i) {
      ASSERT_TRUE(scripts[i]) << errors[i];
      EXPECT_EQ(*scripts[i], *scripts[0]);
      EXPECT_NE(test::readFile(*scripts[i]).find("ADAPTER_VERSION"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace portcheck
