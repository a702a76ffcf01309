#include "clangcheck/kernel_compile.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

#include "clangcheck/clang_output.h"
#include "clangcheck/environment_faults.h"
#include "kernel/kernel_class.h"
#include "kernel/kernel_model.h"
#include "kernel/kernel_source.h"
#include "lint/suppression.h"
#include "lint/lint_engine.h"
#include "parse/syntax_tree.h"
#include "rules/catalogue.h"

namespace portcheck::clangcheck {

namespace fs = std::filesystem;

namespace {

bool isCompilable(const std::string& rel) {
  std::string e = fs::path(rel).extension().string();
  return e == ".cpp" || e == ".cc" || e == ".cxx";
}

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs argv through the shell with stderr merged into stdout; returns (exit status, output).
std::pair<int, std::string> run(const std::vector<std::string>& argv) {
  std::string cmd;
  for (const std::string& a : argv) cmd += shellQuote(a) + " ";
  cmd += "2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return {-1, "cannot start " + argv.front()};
  char buf[8192];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

struct Job {
  const SourceFile* source = nullptr;
  std::string display;
  fs::path file;
  std::vector<std::string> defines;
  ClangExtras extras;
  std::vector<Diagnostic> result;
};

// Does the kernel declare a variable named block_idx itself (`int block_idx = get_block_idx();`)? Then the
// name is its own and the NPU built-in mapping must not touch it.
bool declaresBlockIdx(const std::string& text) {
  static const std::regex kDecl(
      R"(\b(?:int|unsigned|long|int32_t|uint32_t|int64_t|uint64_t|size_t|auto|const)\s*[&*]?\s+block_idx\s*[=;,)\[{])");
  return std::regex_search(text, kDecl);
}

// The prelude that maps the NPU built-in block_idx to the CPU simulator's get_block_idx(): the PTO-ISA headers
// first (their own members named block_idx, pto/cpu/trace.hpp, stay untouched), then the macro. Written once
// per stage into a private temporary folder, removed when the stage ends.
class BlockIdxPrelude {
 public:
  ~BlockIdxPrelude() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  std::string path() {
    if (!dir_.empty()) return (dir_ / "port_check_block_idx.h").string();
    std::string tmpl = (fs::temp_directory_path() / "port-check-kernel-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) return "";
    dir_ = tmpl;
    std::ofstream out(dir_ / "port_check_block_idx.h");
    out << "// port-check: the NPU built-in block_idx on the CPU simulator\n#include <pto/pto-inst.hpp>\n"
           "#define block_idx get_block_idx()\n";
    return (dir_ / "port_check_block_idx.h").string();
  }

 private:
  fs::path dir_;
};

}  // namespace

std::shared_ptr<const kernel::BuildEvidence> kernelBuildEvidence(const fs::path& workspace_root,
                                                                 const KernelCompileOptions& options) {
  return std::make_shared<const kernel::BuildEvidence>(workspace_root, options.defines, options.compile_commands);
}

KernelPlan planKernel(const SourceFile& f, const kernel::BuildEvidence* build, const std::vector<std::string>& defines) {
  KernelPlan plan;
  if (kernel::classifyWithoutParse(f)) return plan;  // not PTO-ISA: not compiled against it
  std::string parseable = kernel::parseableText(f.text);
  SyntaxTree tree = SyntaxTree::parse(Language::Cpp, parseable);
  kernel::KernelModel model = kernel::buildModel(f, tree);
  // Only PTO-ISA code is compiled against PTO-ISA, and a manual-mode kernel in its own mode (ISA014 says so).
  std::optional<kernel::BuildMode> mode;
  if (build) {
    mode = build->modeOf(f.path);
    plan.include_dirs = build->includeDirsOf(f.path);
  }
  kernel::KernelClass kind = kernel::classifyKernel(f, model, parseSuppressions(f, "//").namesRule("AUTO"), mode);
  if (kind.kind == kernel::KernelKind::NotPtoIsa) return plan;
  const bool auto_mode = kind.kind == kernel::KernelKind::Auto;
  bool vec = model.mentions_vec_macro, cube = model.mentions_cube_macro;
  bool sqrt = false, templated_acc = false;
  for (const kernel::Call& c : model.calls) {
    if (!c.instruction) continue;
    std::vector<kernel::Loc> locs;
    for (const kernel::Operand& o : c.args) locs.push_back(model.locOf(o));
    kernel::Core core = kernel::coreOf(*c.instruction, locs);
    if (!model.mentions_vec_macro && !model.mentions_cube_macro) {
      vec |= core == kernel::Core::Vector;
      cube |= core == kernel::Core::Cube;
    }
    if (c.name == "TSQRT" && c.reach.inAutoMode()) sqrt = true;
    if (c.name == "TMATMUL_ACC" && !c.template_args.empty() && c.reach.inAutoMode()) templated_acc = true;
  }
  std::vector<std::string> common;
  // Documented CPU-simulation false failures (shared reference §6.6): compile those kernels without
  // __PTO_AUTO__ (no TASSIGN is needed for -fsyntax-only) and say so.
  if (auto_mode && (sqrt || templated_acc)) {
    std::string why = sqrt ? "TSQRT (pto-isa include/pto/cpu/TSqrt.hpp:20 takes tiles by value, which AUTO-mode "
                             "tiles forbid)"
                           : "TMATMUL_ACC<AccPhase::...> (pto-isa include/pto/cpu/TMatmul.hpp:172 has no templated "
                             "CPU implementation)";
    plan.notices.push_back(makeDiagnostic("ISA011", f.path, 0, 0,
                                          "compiled without __PTO_AUTO__: the CPU simulator headers reject " + why +
                                              " in AUTO mode although the NPU accepts it"));
  } else if (auto_mode) {
    common.push_back("__PTO_AUTO__");
  }
  for (const std::string& d : defines)
    if (d != "__PTO_AUTO__" && !d.starts_with("__PTO_AUTO__=")) common.push_back(d);
  if (kernel::containsWord(f.text, "block_idx") && !declaresBlockIdx(f.text)) {
    plan.block_idx_prelude = true;
    plan.notices.push_back(makeDiagnostic("ISA011", f.path, 0, 0,
                                          "block_idx is an NPU builtin the CPU simulator lacks; the compile check "
                                          "maps it to get_block_idx()"));
  }
  if (!vec && !cube) vec = true;
  if (vec) {
    plan.variants.push_back(common);
    plan.variants.back().push_back("__DAV_VEC__");
  }
  if (cube) {
    plan.variants.push_back(common);
    plan.variants.back().push_back("__DAV_CUBE__");
  }
  return plan;
}

std::vector<std::string> clangArguments(const std::string& clang, const fs::path& headers_root,
                                        const std::vector<std::string>& defines, const std::string& file,
                                        const ClangExtras& extras) {
  std::vector<std::string> a = {clang, "-std=c++20", "-fsyntax-only", "-D__CPU_SIM"};
  for (const std::string& d : defines) a.push_back("-D" + d);
  for (const char* x : {"-isystem"}) a.push_back(x);
  a.push_back((headers_root / "include").string());
  for (const std::string& dir : extras.include_dirs) a.push_back("-I" + dir);
  if (!extras.forced_include.empty()) {
    a.push_back("-include");
    a.push_back(extras.forced_include);
  }
  for (const char* x : {"-include", "stdint.h", "-include", "stddef.h", "-Wno-ignored-attributes",
                        "-Wpre-c++20-compat-pedantic", "-fno-color-diagnostics", "-fno-caret-diagnostics",
                        "-ferror-limit=50"})
    a.push_back(x);
  a.push_back(file);
  return a;
}

std::optional<std::string> findExecutable(const std::string& name, const char* path_env) {
  std::error_code ec;
  if (name.find('/') != std::string::npos) {
    if (fs::is_regular_file(name, ec)) return name;
    return std::nullopt;
  }
  std::string path = path_env ? path_env : "";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    std::string dir = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty() && fs::is_regular_file(fs::path(dir) / name, ec)) return (fs::path(dir) / name).string();
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return std::nullopt;
}

KernelCompileResult compileKernels(const Workspace& ws, const std::vector<std::string>& files,
                                   const KernelCompileOptions& options, const PtoIsaHeaders& headers,
                                   const std::function<const char*(const char*)>& getenv_fn, int jobs) {
  KernelCompileResult r;
  std::vector<std::string> kernels;
  for (const std::string& f : files)
    if (isCompilable(f)) kernels.push_back(f);
  if (kernels.empty()) return r;
  r.status.name = "kernel-compile";
  if (!options.enabled) {
    r.status.state = StageState::Skipped;
    r.status.detail = "disabled by --no-kernel-compile";
    return r;
  }
  auto skip = [&](const std::string& why) {
    r.status.state = StageState::Skipped;
    r.status.detail = why;
    r.diagnostics.push_back(makeDiagnostic("TOOL003", "", 0, 0, "kernel compile stage skipped: " + why,
                                           "pass --pto-isa DIR (or set PTO_ISA_ROOT) and install clang-19 "
                                           "(apt-get install clang-19), or use --no-kernel-compile"));
    return r;
  };
  if (!headers.found) return skip(headers.why_not);
  auto clang = findExecutable(options.clang, getenv_fn("PATH"));
  if (!clang) return skip(options.clang + " not found on PATH; the check needs clang 17 or newer (pto-isa's CPU "
                                          "headers use static_assert(false) in templates)");
  std::vector<Job> work;
  std::size_t planned = 0;  // files that are PTO-ISA code
  std::vector<SourceFile> sources;
  sources.reserve(kernels.size());
  std::shared_ptr<const kernel::BuildEvidence> build = kernelBuildEvidence(ws.root, options);
  if (!build->problem().empty())
    r.diagnostics.push_back(makeDiagnostic("TOOL003", "", 0, 0, "--compile-commands ignored: " + build->problem(),
                                           "give --compile-commands the compile_commands.json CMake writes "
                                           "(-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)"));
  BlockIdxPrelude prelude;
  for (const std::string& rel : kernels) {
    fs::path abs = ws.root / rel;
    ReadResult read = readSourceFile(abs, rel);
    if (!read.file) continue;  // the lint stage already reported it (TOOL002)
    sources.push_back(std::move(*read.file));
    KernelPlan plan = planKernel(sources.back(), build.get(), options.defines);
    if (!plan.variants.empty()) ++planned;
    r.diagnostics.insert(r.diagnostics.end(), plan.notices.begin(), plan.notices.end());
    ClangExtras extras{plan.include_dirs, plan.block_idx_prelude ? prelude.path() : std::string()};
    for (auto& defines : plan.variants) work.push_back({nullptr, rel, abs, defines, extras, {}});
  }
  HeaderTrees trees(headers.root, headers.pinned, ws.root);
  for (Job& j : work)
    for (const SourceFile& s : sources)
      if (s.path == j.display) j.source = &s;
  parallelFor(work.size(), jobs, [&](std::size_t i) {
    Job& j = work[i];
    auto [status, output] = run(clangArguments(*clang, headers.root, j.defines, j.file.string(), j.extras));
    PathMapping paths{j.file.string(), j.display, headers.root.string(), ws.root.string()};
    j.result = classifyClangRun(parseClangOutput(output), {paths, j.source ? j.source->text : std::string()}, trees);
    if (status != 0 && j.result.empty()) {
      std::string first = output.substr(0, output.find('\n'));
      j.result.push_back(makeDiagnostic("ISA009", j.display, 0, 0,
                                        "clang failed (exit " + std::to_string(status) + ") without a diagnostic: " + first));
    }
    if (j.source) parseSuppressions(*j.source, "//").apply(j.source->path, j.result);
  });
  // One environment finding per cause and kernel, however many variants (cores) met it.
  std::set<std::string> environment_seen;
  for (Job& j : work)
    for (Diagnostic& d : j.result)
      if (d.rule != "TOOL009" || environment_seen.insert(d.file + "\n" + std::to_string(d.line) + "\n" + d.message).second)
        r.diagnostics.push_back(std::move(d));
  r.status.state = StageState::Ran;
  r.status.detail = std::to_string(planned) + " PTO-ISA kernel(s) of " + std::to_string(kernels.size()) + " C++ file(s), " + std::to_string(work.size()) +
                    " clang run(s) against " + headers.root.string() + " (from " + headers.origin + ")";
  return r;
}

void kernelCompileInto(Report& report, const Workspace& ws, const Config& config,
                       const std::optional<fs::path>& pypto_root, const KernelCompileOptions& options,
                       const std::function<const char*(const char*)>& getenv_fn, int jobs) {
  PtoIsaHeaders headers = locatePtoIsa(ws.root, options.pto_isa, pypto_root, getenv_fn);
  KernelCompileResult r = compileKernels(ws, report.run.files, options, headers, getenv_fn, jobs);
  if (r.status.name.empty()) return;
  config.apply(r.diagnostics);
  report.append(std::move(r.diagnostics));
  report.run.stages.push_back(std::move(r.status));
}

}  // namespace portcheck::clangcheck
