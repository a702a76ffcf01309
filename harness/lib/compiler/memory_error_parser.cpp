#include "compiler/memory_error_parser.h"

#include <regex>

#include "compiler/compile_text.h"
#include "compiler/python_exception_parser.h"
#include "core/text.h"

namespace portcheck {
namespace {

std::optional<CheckFailed> mapCheck(const std::optional<RawCheckFailed>& raw, const PathMapper& paths) {
  if (!raw) return std::nullopt;
  return CheckFailed{raw->expr, raw->source.empty() ? std::string() : paths.map(raw->source), raw->line};
}

}  // namespace

std::optional<OverflowFigures> parseOverflowSentence(const std::string& text) {
  static const std::regex kOverflow(R"(^(\w+) buffer usage \((\d+) bytes\) exceeds platform limit \((\d+) bytes\))");
  std::smatch m;
  if (!std::regex_search(text, m, kOverflow, std::regex_constants::match_continuous)) return std::nullopt;
  OverflowFigures f;
  f.space = m[1].str();
  std::optional<std::int64_t> used = parseInt64(m[2].str()), limit = parseInt64(m[3].str());
  if (!used || !limit) return std::nullopt;  // figures past int64 are no real message
  f.used = *used;
  f.limit = *limit;
  f.first_sentence = m[0].str();
  std::string_view r = trim(std::string_view(text).substr(static_cast<std::size_t>(m.length(0))));
  if (startsWith(r, ".")) r.remove_prefix(1);
  f.note = trimCopy(r);
  return f;
}

std::optional<CompilerError> parseMemoryError(const std::string& exception_type, const std::string& message,
                                              const PathMapper& paths) {
  if (shortTypeName(exception_type) != "ValueError") return std::nullopt;
  CppMessage cpp = splitCppMessage(message);
  std::string payload = cpp.payload;
  CompilerError e;
  e.exception = exception_type;
  e.check_failed = mapCheck(cpp.check_failed, paths);

  if (auto f = parseOverflowSentence(payload)) {
    e.rule = "COMP002";
    e.kind = "oom";
    e.via = "AllocateMemoryAddr in-pass CHECK";
    e.space = f->space;
    e.used = f->used;
    e.limit = f->limit;
    e.message = payload;
    e.note = f->note;
    return e;
  }

  static const std::regex kDsa(R"(^DSA-RP could not find a placement for '([^']+)' within the on-chip memory capacities)");
  std::smatch m;
  if (std::regex_search(payload, m, kDsa)) {
    e.rule = "COMP004";
    e.kind = "oom";
    e.via = "DSA-RP planner (AllocateMemoryAddr, memory_planner=DSA_RP)";
    e.function = m[1].str();
    if (auto span = takeTrailingSpan(payload)) e.location = paths.location(span->file, span->line, span->column);
    e.message = payload;
    return e;
  }

  static const std::regex kAutoTile(R"(requiring (\d+) bytes, but the active backend provides (\d+) bytes)");
  if (payload.find("AutoTileMatmulL0") != std::string::npos && std::regex_search(payload, m, kAutoTile) &&
      parseInt64(m[1].str()) && parseInt64(m[2].str())) {  // figures past int64 are no real message
    e.rule = "COMP005";
    e.kind = "oom";
    e.via = "AutoTileMatmulL0";
    e.used = *parseInt64(m[1].str());
    e.limit = *parseInt64(m[2].str());
    static const std::regex kSpace(R"(resident in (\w+))");
    std::smatch s;
    if (std::regex_search(payload, s, kSpace)) e.space = s[1].str();
    if (auto span = takeTrailingSpan(payload)) e.location = paths.location(span->file, span->line, span->column);
    e.message = payload;
    return e;
  }
  return std::nullopt;
}

}  // namespace portcheck
