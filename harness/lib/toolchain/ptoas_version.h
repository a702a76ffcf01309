#pragma once
// ptoas's version against the one PyPTO pins (<pypto>/toolchain/versions.env): an older ptoas rejects
// ops newer than itself, which reads like an error in the port. doctor reports the mismatch; the
// compile and run stages add it to a ptoas rejection.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "toolchain/toolchain.h"

namespace portcheck {

// "0.27" from `ptoas --version` output ("ptoas 0.27", "PTOAS version v0.57.1"); "" when none.
std::string ptoasVersion(std::string_view output);

// PTOAS_VERSION of <pypto>/toolchain/versions.env ("v0.57"); "" when absent.
std::string pinnedPtoasVersion(const std::filesystem::path& pypto_root);

// True when both are known and differ ("v0.57" and "0.57" agree).
bool ptoasVersionsDiffer(std::string_view installed, std::string_view pinned);

// `ptoas --version` of the toolchain's ptoas, asked once per ptoas path in this process; "" when it
// has none or it does not answer.
std::string installedPtoasVersion(const Toolchain& toolchain, const std::map<std::string, std::string>& env);

// The note a ptoas rejection gets when this ptoas is not the pinned one, "" otherwise.
std::string ptoasMismatchNote(std::string_view installed, std::string_view pinned);

}  // namespace portcheck
