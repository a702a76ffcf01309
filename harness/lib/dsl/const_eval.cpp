#include "dsl/const_eval.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace portcheck::dsl {

namespace {

Number intResult(bool overflow, std::int64_t v) { return overflow ? Number{} : Number::ofInt(v); }

Number floatResult(double v) { return std::isfinite(v) ? Number::ofFloat(v) : Number{}; }

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Number intPow(std::int64_t base, std::int64_t exp) {
  std::int64_t result = 1;
  for (std::int64_t i = 0; i < exp; ++i) {
    if (__builtin_mul_overflow(result, base, &result)) return {};
    if (result == 0 || result == 1) break;  // 0**n, 1**n: no further change (base 0/1)
  }
  if (base == -1) result = (exp % 2 == 0) ? 1 : -1;
  return Number::ofInt(result);
}

}  // namespace

std::optional<bool> compareNumbers(std::string_view op, Number a, Number b) {
  if (!a.known() || !b.known()) return std::nullopt;
  const double x = a.asDouble(), y = b.asDouble();
  if (op == "==") return x == y;
  if (op == "!=") return x != y;
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  if (op == ">=") return x >= y;
  return std::nullopt;
}

Number applyBinary(std::string_view op, Number a, Number b) {
  if (!a.known() || !b.known()) return {};
  bool ints = a.isInt() && b.isInt();
  if (op == "+") {
    if (ints) {
      std::int64_t r = 0;
      bool overflow = __builtin_add_overflow(a.i, b.i, &r);
      return intResult(overflow, r);
    }
    return floatResult(a.asDouble() + b.asDouble());
  }
  if (op == "-") {
    if (ints) {
      std::int64_t r = 0;
      bool overflow = __builtin_sub_overflow(a.i, b.i, &r);
      return intResult(overflow, r);
    }
    return floatResult(a.asDouble() - b.asDouble());
  }
  if (op == "*") {
    if (ints) {
      std::int64_t r = 0;
      bool overflow = __builtin_mul_overflow(a.i, b.i, &r);
      return intResult(overflow, r);
    }
    return floatResult(a.asDouble() * b.asDouble());
  }
  if (op == "/") {
    if (b.asDouble() == 0) return {};
    return floatResult(a.asDouble() / b.asDouble());
  }
  if (op == "//") {
    if (ints) {
      if (b.i == 0 || (a.i == INT64_MIN && b.i == -1)) return {};
      return Number::ofInt(floorDiv(a.i, b.i));
    }
    if (b.asDouble() == 0) return {};
    return floatResult(std::floor(a.asDouble() / b.asDouble()));
  }
  if (op == "%") {
    if (ints) {
      if (b.i == 0 || (a.i == INT64_MIN && b.i == -1)) return {};
      std::int64_t r = a.i % b.i;
      if (r != 0 && ((r < 0) != (b.i < 0))) r += b.i;
      return Number::ofInt(r);
    }
    double d = b.asDouble();
    if (d == 0) return {};
    double r = std::fmod(a.asDouble(), d);
    if (r != 0 && ((r < 0) != (d < 0))) r += d;
    return floatResult(r);
  }
  if (op == "**") {
    if (ints && b.i >= 0) return b.i > 64 && a.i != 0 && a.i != 1 && a.i != -1 ? Number{} : intPow(a.i, b.i);
    if (a.asDouble() == 0 && b.asDouble() < 0) return {};
    return floatResult(std::pow(a.asDouble(), b.asDouble()));
  }
  if (!ints) return {};
  if (op == "<<") {
    if (b.i < 0 || b.i > 62) return {};
    std::int64_t r = a.i * (std::int64_t{1} << b.i);
    if (a.i != 0 && r / (std::int64_t{1} << b.i) != a.i) return {};
    return Number::ofInt(r);
  }
  if (op == ">>") {
    if (b.i < 0) return {};
    return Number::ofInt(b.i > 63 ? (a.i < 0 ? -1 : 0) : (a.i >> b.i));
  }
  if (op == "&") return Number::ofInt(a.i & b.i);
  if (op == "|") return Number::ofInt(a.i | b.i);
  if (op == "^") return Number::ofInt(a.i ^ b.i);
  return {};
}

Number applyUnary(std::string_view op, Number a) {
  if (!a.known()) return {};
  if (op == "+") return a;
  if (op == "-") {
    if (a.isInt()) return a.i == INT64_MIN ? Number{} : Number::ofInt(-a.i);
    return Number::ofFloat(-a.f);
  }
  if (op == "~" && a.isInt()) return Number::ofInt(~a.i);
  return {};
}

Number parseNumberLiteral(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text)
    if (c != '_') s.push_back(c);
  if (s.empty()) return {};
  char last = s.back();
  if (last == 'j' || last == 'J' || last == 'l' || last == 'L') return {};  // complex / py2 long
  int base = 10;
  std::size_t start = 0;
  if (s.size() > 2 && s[0] == '0') {
    char p = static_cast<char>(s[1] | 0x20);
    if (p == 'x') base = 16;
    else if (p == 'o') base = 8;
    else if (p == 'b') base = 2;
    if (base != 10) start = 2;
  }
  bool is_float = base == 10 && s.find_first_of(".eE") != std::string::npos;
  if (is_float) {
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v)) return {};
    return Number::ofFloat(v);
  }
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data() + start, s.data() + s.size(), v, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return {};
  return Number::ofInt(v);
}

}  // namespace portcheck::dsl
