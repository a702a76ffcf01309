#pragma once
// Whether anything writes a GM buffer: the tensor a pl.Out parameter or a pl.create_tensor holds,
// followed through everything that hands the same buffer on (a plain rebinding `x = out`, the
// tensor a store / assemble or a kernel returns, a view of it `out[a:b, :]` / pl.reshape / pl.slice,
// a loop's init_values, pl.yield_) and into every DSL function it is passed to, parameter by
// parameter (8 calls deep). Used by DSL126 (an output no kernel writes on any path) and DSL122
// (which leaves a kernel called from the unit to DSL126, judged at its caller).
//
// Conservative by design: a use the analysis does not understand (a Python helper the buffer is
// passed to, an operation that is not a known pure read, a tuple that is not returned) counts as a
// possible write, so "not written" is said only of a buffer that certainly stays as it came in.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dsl/dsl_model.h"

namespace portcheck {

struct BufferUse {
  bool written = false;                 // a write (or a use that may write) was found
  int write_line = 0;                   // where, when written
  bool returned = false;                // the buffer (or an alias) is returned by the function
  bool read = false;                    // something reads it (a load, a kernel it is passed to)
  bool passed_as_output = false;        // passed for a pl.Out / pl.InOut parameter (that does not write it)
  std::vector<std::pair<std::string, int>> passed_to;  // DSL functions it was passed to that do not write it
};

// The parameter's value is used nowhere but in a plain `return x` / `return x, y`, and its name is
// never rebound: what DSL122 reports (a call it is passed to, or any other use, is left to DSL126).
bool onlyReturned(const dsl::Function& fn, const dsl::Param& p);

class BufferWriteFlow {
 public:
  explicit BufferWriteFlow(const dsl::ProgramModel& pm);

  // Follows the buffer held by value `value` of `fn` (a parameter's value or a create_tensor result).
  BufferUse follow(const dsl::Function& fn, int value, int depth = 0) const;
  // True when `callee` (or what it passes the parameter to) may write its parameter `p`.
  bool paramWritten(const dsl::Function& callee, const dsl::Param& p, int depth) const;
  // True when some DSL function of the unit calls `fn`.
  bool isCalled(const dsl::Function& fn) const { return called_.count(&fn) > 0; }

 private:
  struct Index {
    std::vector<int> parent;                  // expr -> enclosing expr (-1 at statement level)
    std::vector<bool> target;                 // expr is (part of) an assignment target
    std::multimap<int, int> defined_by;       // def_expr -> values it defines
    std::multimap<int, int> reads;            // value -> Name exprs reading it
  };
  const Index& index(const dsl::Function& fn) const;

  const dsl::ProgramModel& pm_;
  std::set<const dsl::Function*> called_;
  mutable std::map<const dsl::Function*, Index> indexes_;
  mutable std::map<std::pair<const dsl::Function*, const dsl::Param*>, bool> param_written_;
};

}  // namespace portcheck
