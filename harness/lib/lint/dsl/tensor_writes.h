#pragma once
// Where a function writes one of its tensor parameters: a pl.store / pl.assemble / pl.write into it,
// a subscript assignment, or a call that passes it to a kernel parameter declared pl.Out / pl.InOut
// or written by that kernel (followed 8 calls deep). Shared by DSL109 (a written entry tensor that is
// not pl.Out) and DSL122 (a pl.Out tensor nothing writes).
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "dsl/dsl_model.h"

namespace portcheck {

struct Write {
  int line = 0;
  std::string how;
  bool also_read = false;  // the tensor is read as data too: an in-place update (KV cache) rather than an output
};

class WriteFinder {
 public:
  explicit WriteFinder(const dsl::ProgramModel& pm) : pm_(pm) {}

  // Where `fn` writes parameter `p` (first write), if it does. Remembered: a kernel called from many
  // places (and every parameter passed to it) is read once per depth, not once per path to it.
  std::optional<Write> writes(const dsl::Function& fn, const dsl::Param& p, int depth = 0) const;

 private:
  std::optional<Write> firstWrite(const dsl::Function& fn, const dsl::Param& p, int depth) const;

  const dsl::ProgramModel& pm_;
  mutable std::map<std::tuple<const dsl::Function*, const dsl::Param*, int>, std::optional<Write>> known_;
};

}  // namespace portcheck
