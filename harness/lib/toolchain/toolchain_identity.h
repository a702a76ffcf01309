#pragma once
// Which toolchain a check ran with, as one value: two runs with the same identity compiled and ran with
// the same PyPTO, interpreter and ptoas (the attempt ledger tells a changed toolchain from a re-run).
#include <string>

#include "toolchain/toolchain.h"

namespace portcheck {

// SHA-1 hex over the PyPTO checkout (path, revision, built extension and its stamp), the interpreter and
// ptoas (path and stamp), the parts the compile cache keys on; "none" when no toolchain was found.
std::string toolchainIdentity(const Toolchain& toolchain);

}  // namespace portcheck
