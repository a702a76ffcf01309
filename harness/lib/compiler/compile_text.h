#pragma once
// Text helpers shared by the compile-output parsers: ANSI colour, logger prefixes, the
// `[file:line:col]` span PyPTO appends to messages and the `Check failed:` / C++ Traceback tails.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compile_facts.h"

namespace portcheck {

// Removes ANSI escape sequences (CSI `ESC [ ... letter` and OSC `ESC ] ... BEL`).
std::string stripAnsi(std::string_view text);

// Lines are cut at this many bytes before parsing (no compiler diagnostic comes close).
inline constexpr std::size_t kMaxLogLineBytes = 16384;

// The compile log as clean lines: UTF-8 sanitized, colour removed, no line ends, at most
// kMaxLogLineBytes each.
std::vector<std::string> logLines(std::string_view log);

// `2026-11-22 03:39:47.131 I | <payload>` -> level 'I' and payload; nullopt for other lines.
struct LoggerLine {
  char level = 0;
  std::string payload;
};
std::optional<LoggerLine> parseLoggerLine(std::string_view line);
// The payload of a logger line, or the line itself.
std::string logPayload(std::string_view line);

// A raw `file:line:col` (the file may contain ':'); nullopt when it does not end in two numbers.
struct RawLocation {
  std::string file;
  int line = 0;
  int column = 0;
};
std::optional<RawLocation> parseRawLocation(std::string_view text);

// Splits a trailing ` [file:line:col]` (PyPTO's span suffix) off `text`.
std::optional<RawLocation> takeTrailingSpan(std::string& text);
// Splits a trailing ` at file:line:col` (warnings, perf hints, op type-deduction errors) off `text`.
std::optional<RawLocation> takeTrailingAt(std::string& text);

// `Check failed: <expr> at <source>:<line>`.
struct RawCheckFailed {
  std::string expr;
  std::string source;
  int line = 0;
};
std::optional<RawCheckFailed> parseCheckFailedLine(std::string_view line);

// Removes the `\n\nC++ Traceback (most recent call last):` block (and what follows it).
std::string dropCppTraceback(std::string_view text);

// Splits a C++-originated exception message into its payload and its Check-failed tail.
struct CppMessage {
  std::string payload;  // everything before the Check-failed line, trimmed
  std::optional<RawCheckFailed> check_failed;
  std::string after;    // lines after the Check-failed line (rare: op type-deduction ` at ...`)
};
CppMessage splitCppMessage(std::string_view text);

std::string trimCopy(std::string_view s);
// Last `n` non-blank lines of `lines`.
std::vector<std::string> lastLines(const std::vector<std::string>& lines, std::size_t n);

}  // namespace portcheck
