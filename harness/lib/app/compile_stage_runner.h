#pragma once
// The compile stage as the commands use it (port-check compile and check).
#include <optional>
#include <string>

#include "app/commands.h"

namespace portcheck {

// Compiles the targets' projects and program files into `report`: compiler findings, SRAM rows and a
// "compile" stage entry. Without a toolchain: COMP909 (an error) when `required`, else TOOL003.
void compileInto(Report& report, const Session& session, const CommonOptions& options, const CompileOptions& compile,
                 const Targets& targets, const Io& io, bool required);

// "compile.timeout" from port-check.json options; nullopt when unset or invalid (`problem` says why).
std::optional<int> configuredTimeout(const Config& config, std::string& problem);

}  // namespace portcheck
