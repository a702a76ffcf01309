#include "ledger/ledger_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "ledger/attempt_json.h"
#include "rules/catalogue.h"

namespace portcheck::ledger {

namespace fs = std::filesystem;

LedgerPaths ledgerPaths(const fs::path& project_dir) {
  fs::path dir = project_dir / ".port-check";
  return {dir, dir / "ledger.jsonl", dir / "ledger.lock", dir / "snapshot.json"};
}

bool prepareLedgerDir(const fs::path& dir, std::string& error) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    error = "cannot create " + dir.string() + ": " + ec.message();
    return false;
  }
  fs::path ignore = dir / ".gitignore";
  if (fs::exists(ignore, ec)) return true;
  return writeFileAtomically(ignore, "*\n", error);
}

int LedgerHistory::nextNumber() const {
  if (!attempts.empty()) return attempts.back().number + 1;
  return summary ? summary->last_attempt + 1 : 1;
}

LedgerRead parseLedger(std::string_view text) {
  LedgerRead out;
  out.exists = true;
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string line(text.substr(start, end - start));
    start = end + 1;
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ParsedRecord r = parseRecord(line);
    if (r.summary) {
      if (out.history.summary) r.summary->merge(*out.history.summary);
      out.history.summary = std::move(r.summary);
    } else if (r.attempt && r.repeat) {
      if (!out.history.attempts.empty() && out.history.attempts.back().number == r.attempt->number)
        out.history.attempts.back().absorbRepeat(*r.attempt);
      else
        out.skipped.push_back({number, "a repeat of attempt " + std::to_string(r.attempt->number) +
                                           ", which is not the attempt before it"});
    } else if (r.attempt && !out.history.attempts.empty() && r.attempt->number <= out.history.attempts.back().number) {
      out.skipped.push_back({number, "attempt " + std::to_string(r.attempt->number) + " is out of order (after " +
                                         std::to_string(out.history.attempts.back().number) + ")"});
    } else if (r.attempt) {
      out.history.attempts.push_back(std::move(*r.attempt));
    } else {
      out.skipped.push_back({number, r.error});
    }
  }
  return out;
}

int removeForeignRecords(LedgerHistory& history, const std::string& project, std::string& other) {
  int removed = 0;
  auto foreign = [&](const std::string& owner) {
    if (owner.empty() || owner == project) return false;
    if (other.empty()) other = owner;
    ++removed;
    return true;
  };
  if (history.summary && foreign(history.summary->project)) history.summary.reset();
  std::erase_if(history.attempts, [&](const Attempt& a) { return foreign(a.project); });
  return removed;
}

Diagnostic foreignRecordsWarning(const std::string& project, int count, const std::string& other) {
  return makeDiagnostic("TOOL007", ledgerDisplayPath(project), 0, 0,
                        std::to_string(count) + (count == 1 ? " record belongs" : " records belong") + " to " + other +
                            ", not to " + project + " (the folder was copied with its ledger): " +
                            (count == 1 ? "it is" : "they are") +
                            " ignored, and dropped from this ledger when its next attempt is recorded");
}

std::string ledgerDisplayPath(const std::string& project) { return project + "/.port-check/ledger.jsonl"; }

std::vector<Diagnostic> skippedLineWarnings(const std::string& project, const std::vector<SkippedLine>& skipped) {
  std::vector<Diagnostic> out;
  for (const SkippedLine& s : skipped)
    out.push_back(makeDiagnostic("TOOL007", ledgerDisplayPath(project), s.line, 0,
                                 "ledger line " + std::to_string(s.line) + " is not a record and was skipped: " + s.why));
  return out;
}

LedgerRead readLedger(const fs::path& file, std::string& error) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  if (!fs::is_regular_file(file, ec)) {
    error = "cannot read " + file.string() + ": not a file";
    return {};
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  if (in) ss << in.rdbuf();
  if (!in || in.bad()) {
    error = "cannot read " + file.string();
    return {};
  }
  return parseLedger(ss.str());
}

bool appendLine(const fs::path& file, const std::string& line, std::string& error) {
  int fd = ::open(file.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = "cannot open " + file.string() + ": " + std::strerror(errno);
    return false;
  }
  std::string bytes = line;
  struct stat st {};
  char last = '\n';
  if (::fstat(fd, &st) == 0 && st.st_size > 0 && ::pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n')
    bytes.insert(bytes.begin(), '\n');
  ssize_t n;
  do n = ::write(fd, bytes.data(), bytes.size());
  while (n < 0 && errno == EINTR);
  bool ok = n == static_cast<ssize_t>(bytes.size());
  if (!ok) error = "cannot append to " + file.string() + ": " + (n < 0 ? std::strerror(errno) : "short write");
  ::close(fd);
  return ok;
}

bool foldOldAttempts(const fs::path& file, LedgerHistory& history, int max_attempts, std::string& error) {
  if (max_attempts < 1 || static_cast<int>(history.attempts.size()) <= max_attempts) return true;
  std::size_t drop = history.attempts.size() - static_cast<std::size_t>(max_attempts);
  FoldedSummary folded;
  for (std::size_t i = 0; i < drop; ++i) folded.fold(history.attempts[i]);
  if (history.summary) folded.merge(*history.summary);
  history.summary = folded;
  history.attempts.erase(history.attempts.begin(), history.attempts.begin() + static_cast<std::ptrdiff_t>(drop));
  return rewriteLedger(file, history, error);
}

bool rewriteLedger(const fs::path& file, const LedgerHistory& history, std::string& error) {
  std::string text = history.summary ? recordLine(summaryToJson(*history.summary)) : std::string();
  for (const Attempt& a : history.attempts) text += recordLine(attemptToJson(a));
  return writeFileAtomically(file, text, error);
}

}  // namespace portcheck::ledger
