#pragma once
// Gathers port-check doctor's facts by running what the stages run: the configured interpreter with the
// run stage's environment (the Python probe), `ptoas --version`, and the simulator's kernel compiler on
// a probe that includes the pto-isa CPU headers and converts to BF16.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "doctor/doctor_facts.h"

namespace portcheck::doctor {

inline constexpr int kDefaultProbeTimeoutSeconds = 30;

struct ProbeSettings {
  std::map<std::string, std::string> environment;  // the caller's
  std::filesystem::path cache_root;                // probe files go to <cache_root>/doctor/
  std::chrono::seconds timeout{kDefaultProbeTimeoutSeconds};  // per probe process (--probe-timeout)
  // Set by the caller to stop (an MCP cancellation, Ctrl-C): the running probe's process group is killed,
  // it is reported as interrupted and no further probe starts.
  const std::atomic<bool>* cancel = nullptr;
};

ToolchainFacts gatherFacts(const Toolchain& toolchain, const ProbeSettings& settings);

// The probe's verdict from one compile of it with the simulator's flags: headers_ok, bf16_type_real and
// headers_error, from the compiler's exit status and output.
void judgeHeaderProbe(int exit_code, std::string_view output, KernelCompilerFacts& facts);

}  // namespace portcheck::doctor
