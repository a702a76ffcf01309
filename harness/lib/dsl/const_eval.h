#pragma once
// Python arithmetic on compile-time numbers (the subset module constants and shapes use).
#include <optional>
#include <string_view>

#include "dsl/dsl_types.h"

namespace portcheck::dsl {

// `a <op> b` with Python semantics for + - * / // % ** << >> & | ^; Unknown when an operand is
// unknown, the operator is not one of these, the result overflows int64, or a divisor is zero.
Number applyBinary(std::string_view op, Number a, Number b);
// `a <op> b` for == != < <= > >= on two known numbers; nullopt for another operator or an unknown.
std::optional<bool> compareNumbers(std::string_view op, Number a, Number b);
// `<op> a` for - + ~.
Number applyUnary(std::string_view op, Number a);
// A Python integer / float literal ("1_024", "0x40", "1e-6", "3."); Unknown when it is not one
// (or an integer does not fit in int64).
Number parseNumberLiteral(std::string_view text);

}  // namespace portcheck::dsl
