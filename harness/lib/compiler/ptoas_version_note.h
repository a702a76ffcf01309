#pragma once
// A ptoas rejection (COMP007 from the compile, GOLD015 naming ptoas from the run's own compile) made by
// a ptoas other than the one PyPTO pins gets a note saying so: ops newer than that ptoas are rejected
// however right the port is (toolchain/ptoas_version.h).
#include <map>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "toolchain/toolchain.h"

namespace portcheck {

// True for a finding that is ptoas rejecting a kernel.
bool isPtoasRejection(const Diagnostic& d);

// Adds the version note to every ptoas rejection in `diagnostics`; asks ptoas its version only when
// there is one.
void addPtoasVersionNotes(std::vector<Diagnostic>& diagnostics, const Toolchain& toolchain,
                          const std::map<std::string, std::string>& env);

}  // namespace portcheck
