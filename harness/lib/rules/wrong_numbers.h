#pragma once
// The rules whose finding means "this compiles and computes the wrong numbers": a kernel writing a
// column window through the dense strides of its own shape (DSL119), a kernel called with a tensor of
// another static shape than it is compiled for (DSL120). A port reports them in the pypto-lib blocks it
// imports too (the port runs that code), and a golden mismatch names them as its likely cause.
#include <string_view>

namespace portcheck {

inline bool predictsWrongNumbers(std::string_view rule) { return rule == "DSL119" || rule == "DSL120"; }

}  // namespace portcheck
