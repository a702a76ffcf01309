#include "toolchain/toolchain_identity.h"

#include "compiler/content_hash.h"
#include "core/file_stamp.h"

namespace portcheck {

std::string toolchainIdentity(const Toolchain& t) {
  if (!t.found) return "none";
  HashBuilder h;
  h.add("pypto_root", t.pypto_root.string());
  h.add("pypto_revision", t.revision);
  h.add("extension", t.extension.string() + "@" + t.extension_stamp);
  h.add("python", t.python);
  h.add("ptoas", t.ptoas.empty() ? "<none>" : t.ptoas.string() + "@" + fileStamp(t.ptoas).value_or("-"));
  return h.hex();
}

}  // namespace portcheck
