#include "doctor/doctor_probes.h"

#include <fstream>
#include <regex>
#include <sstream>

#include "compiler/compile_driver.h"
#include "core/atomic_file.h"
#include "core/text.h"
#include "golden/run_driver.h"
#include "process/subprocess.h"
#include "toolchain/ptoas_version.h"

namespace portcheck::doctor {

namespace fs = std::filesystem;

namespace {

// Marks the probe's own static_assert, so a failure of it is told apart from the headers' errors.
constexpr std::string_view kBf16Marker = "port-check-doctor: bfloat16_t is IEEE half";

// Includes what a generated kernel includes, then asks for a real BF16 type and its conversions.
constexpr std::string_view kProbeSource = R"(#include <cstdint>
#include <pto/pto-inst.hpp>
#include <cstdio>
#include <cstring>
#include <type_traits>
static_assert(!std::is_same_v<bfloat16_t, _Float16>, "port-check-doctor: bfloat16_t is IEEE half");
int main() {
  volatile float one = 1.0f, big = 1.0e5f;
  bfloat16_t b = static_cast<bfloat16_t>(one);
  std::uint16_t bits = 0;
  std::memcpy(&bits, &b, sizeof bits);
  float back = static_cast<float>(static_cast<bfloat16_t>(big));
  std::printf("bf16(1.0)=0x%04x bf16(1e5)=%g\n", bits, back);
  return bits == 0x3F80 && back > 99000.0f && back < 101000.0f ? 0 : 1;
}
)";

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  if (in.is_open()) ss << in.rdbuf();
  return ss.str();
}

std::string firstLine(std::string_view text) {
  for (std::string_view line : splitLines(text))
    if (!trim(line).empty()) return std::string(trim(line));
  return {};
}

// Runs one probe in its own process group, killed on timeout or when `cancel` is set.
ProcessResult run(std::vector<std::string> argv, const std::map<std::string, std::string>& env,
                  std::chrono::seconds timeout, const std::atomic<bool>* cancel, const fs::path& cwd = {}) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.env = env;
  spec.cwd = cwd;
  spec.timeout = timeout;
  spec.max_output = 1u << 20;
  spec.cancel = cancel;
  return runProcess(spec);
}

bool cancelled(const ProbeSettings& s) { return s.cancel && s.cancel->load(); }

std::string whyFailed(const ProcessResult& r) {
  if (!r.started) return r.spawn_error;
  if (r.cancelled) return "interrupted after " + std::to_string(static_cast<int>(r.seconds)) + " s";
  if (r.timed_out) return "timed out after " + std::to_string(static_cast<int>(r.seconds)) + " s";
  if (r.signal) return "killed by " + signalDescription(r.signal);
  std::string line = firstLine(r.output);
  return "exit status " + std::to_string(r.exit_code) + (line.empty() ? "" : ": " + line);
}

void probePython(const Toolchain& t, const std::map<std::string, std::string>& env, const ProbeSettings& s,
                 ToolchainFacts& facts) {
  std::string error;
  std::optional<fs::path> adapter = installAdapter(s.cache_root, error);
  if (!adapter) {
    facts.probe_error = error;
    return;
  }
  fs::path out = s.cache_root / "doctor" / "probe.json";
  std::error_code ec;
  fs::create_directories(out.parent_path(), ec);
  fs::remove(out, ec);
  ProcessResult r = run({t.python, "-B", (adapter->parent_path() / "port_check_doctor.py").string(), "--out",
                         out.string()},
                        env, s.timeout, s.cancel);
  std::string text = readText(out);
  if (r.cancelled) {
    facts.probe_error = whyFailed(r);
    facts.probe_interrupted = facts.interrupted = true;
    return;
  }
  if (text.empty()) {
    facts.probe_error = whyFailed(r);
    return;
  }
  try {
    facts.probe = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    facts.probe_error = std::string("unreadable probe result: ") + e.what();
  }
  if (facts.probe.is_object() && facts.probe.contains("internal_error"))
    facts.probe_error = facts.probe.value("internal_error", "");
}

void probePtoas(const Toolchain& t, const std::map<std::string, std::string>& env, const ProbeSettings& s,
                ToolchainFacts& facts) {
  if (t.found) facts.ptoas.pinned = pinnedPtoasVersion(t.pypto_root);
  if (t.ptoas.empty()) return;
  ProcessResult r = run({t.ptoas.string(), "--version"}, env, s.timeout, s.cancel);
  facts.interrupted |= r.cancelled;
  facts.ptoas.ran = r.started && !r.timed_out && r.signal == 0 && r.exit_code == 0;
  facts.ptoas.version_output = facts.ptoas.ran ? firstLine(r.output) : whyFailed(r);
  if (facts.ptoas.ran) facts.ptoas.version = ptoasVersion(r.output);
}

// The flags simpler compiles simulated kernels with (simpler_setup/toolchain.py, Gxx15Toolchain), for a
// vector kernel.
std::vector<std::string> simulatorFlags(const fs::path& pto_isa) {
  fs::path include = pto_isa / "include";
  return {"-std=c++23", "-fpermissive", "-D__CPU_SIM", "-DPTO_CPU_MAX_THREADS=1", "-DNDEBUG", "-D__DAV_VEC__",
          "-I" + include.string(), "-I" + (include / "pto").string()};
}

void probeKernelCompiler(const std::map<std::string, std::string>& env, const ProbeSettings& s,
                         ToolchainFacts& facts) {
  KernelCompilerFacts& k = facts.kernel_compiler;
  std::optional<fs::path> cxx = findExecutable("g++-15", env);
  if (!cxx) return;
  k.path = *cxx;
  ProcessResult version = run({cxx->string(), "--version"}, env, s.timeout, s.cancel);
  k.version_line = version.exit_code == 0 ? firstLine(version.output) : whyFailed(version);

  fs::path pto_isa;
  if (facts.probe.is_object()) {
    const nlohmann::json& p = facts.probe.value("pto_isa", nlohmann::json::object());
    if (p.is_object()) pto_isa = p.value("checkout", "");
  }
  std::error_code ec;
  if (pto_isa.empty() || !fs::is_directory(pto_isa / "include" / "pto", ec)) return;

  fs::path dir = s.cache_root / "doctor";
  fs::path source = dir / "bf16_probe.cpp";
  fs::path binary = dir / "bf16_probe";
  std::string error;
  if (!writeFileAtomically(source, kProbeSource, error, true)) {
    k.headers_error = error;
    return;
  }
  k.probed = true;
  std::vector<std::string> argv{cxx->string()};
  for (std::string& f : simulatorFlags(pto_isa)) argv.push_back(std::move(f));
  std::vector<std::string> syntax = argv;
  syntax.insert(syntax.end(), {"-fsyntax-only", source.string()});
  // Compiling the pto-isa headers takes longer than a probe that only answers: four times its limit.
  const std::chrono::seconds compile_timeout = 4 * s.timeout;
  ProcessResult compiled = run(syntax, env, compile_timeout, s.cancel, dir);
  judgeHeaderProbe(compiled.started && !compiled.timed_out ? compiled.exit_code : -1,
                   compiled.started && !compiled.timed_out ? std::string_view(compiled.output)
                                                           : std::string_view(whyFailed(compiled)),
                   k);
  if (!k.headers_ok || !k.bf16_type_real) return;

  fs::remove(binary, ec);
  argv.insert(argv.end(), {"-O2", source.string(), "-o", binary.string()});
  ProcessResult linked = run(argv, env, compile_timeout, s.cancel, dir);
  if (linked.exit_code != 0 || !fs::is_regular_file(binary, ec)) {
    std::string line;
    for (std::string_view l : splitLines(linked.output))
      if (l.find("undefined reference") != std::string_view::npos || l.find("error") != std::string_view::npos) {
        line = std::string(trim(l));
        break;
      }
    k.bf16_error = "a program converting to BF16 does not link: " + (line.empty() ? whyFailed(linked) : line);
    return;
  }
  ProcessResult ran = run({binary.string()}, env, s.timeout, s.cancel, dir);
  k.bf16_runs = ran.started && ran.exit_code == 0;
  if (!k.bf16_runs) k.bf16_error = "FP32 -> BF16 gives the wrong bits: " + firstLine(ran.output) + " (want 0x3f80, 99840)";
}

}  // namespace

void judgeHeaderProbe(int exit_code, std::string_view output, KernelCompilerFacts& k) {
  if (exit_code == 0) {
    k.headers_ok = k.bf16_type_real = true;
    return;
  }
  // Errors other than the probe's own static_assert are the headers' (or the compiler's) problem.
  std::string first_other;
  bool marker = false;
  for (std::string_view line : splitLines(output)) {
    if (line.find("error") == std::string_view::npos) continue;
    if (line.find(kBf16Marker) != std::string_view::npos) {
      marker = true;
      continue;
    }
    if (first_other.empty() && (line.find("error:") != std::string_view::npos)) first_other = std::string(trim(line));
  }
  k.headers_ok = marker && first_other.empty();
  k.bf16_type_real = false;
  if (!k.headers_ok) k.headers_error = first_other.empty() ? firstLine(output) : first_other;
}

ToolchainFacts gatherFacts(const Toolchain& toolchain, const ProbeSettings& settings) {
  ToolchainFacts facts;
  facts.toolchain = toolchain;
  std::map<std::string, std::string> env =
      toolchain.found ? runEnvironment(settings.environment, toolchain) : settings.environment;
  // Without a checkout the probe still runs: it finds PyPI look-alikes (CANN's pypto, ptoas, simpler).
  probePython(toolchain, env, settings, facts);
  // After a cancellation nothing more starts: every probe still to run would be killed at once.
  if (!cancelled(settings)) probePtoas(toolchain, env, settings, facts);
  if (!cancelled(settings)) probeKernelCompiler(env, settings, facts);
  facts.interrupted |= cancelled(settings);
  return facts;
}

}  // namespace portcheck::doctor
