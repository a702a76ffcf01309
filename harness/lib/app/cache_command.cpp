// port-check cache stats | clear: the caches' counters per tier, kept in <cache_root>/stats.json
// (store/cache_stats.h), and removing the local entries (docs/cli.md, docs/shared-cache.md).
#include <iomanip>
#include <sstream>

#include "app/commands.h"
#include "app/compile_stage_runner.h"
#include "store/cache_stats.h"
#include "store/shared_tier.h"

namespace portcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string hitRate(const store::TierCounters& t) {
  const std::uint64_t lookups = t.hits + t.misses;
  if (lookups == 0) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << 100.0 * static_cast<double>(t.hits) / static_cast<double>(lookups) << "%";
  return s.str();
}

std::string statsText(const fs::path& root, const std::string& remote, const store::CacheStats& s) {
  std::ostringstream out;
  out << "cache root: " << root.string() << "\n";
  out << "remote: " << (remote.empty() ? "none" : remote) << "\n\n";
  out << std::left << std::setw(8) << "tier" << std::right << std::setw(9) << "hits" << std::setw(9) << "misses"
      << std::setw(10) << "hit rate" << std::setw(14) << "bytes read" << std::setw(9) << "writes" << std::setw(15)
      << "bytes written" << std::setw(8) << "errors" << std::setw(10) << "rejected" << "\n";
  auto row = [&](const char* name, const store::TierCounters& t) {
    out << std::left << std::setw(8) << name << std::right << std::setw(9) << t.hits << std::setw(9) << t.misses
        << std::setw(10) << hitRate(t) << std::setw(14) << t.bytes_read << std::setw(9) << t.writes << std::setw(15)
        << t.bytes_written << std::setw(8) << t.errors << std::setw(10) << t.rejected << "\n";
  };
  row("local", s.local);
  row("remote", s.remote);
  out << "\nevicted from the local tier: " << s.evicted_entries << " entries, " << s.evicted_bytes << " bytes\n";
  out << "remote writes abandoned at exit: " << s.abandoned_writes << "\n";
  if (!s.notes.empty()) {
    out << "\nnewest notes:\n";
    for (const std::string& n : s.notes) out << "  " << n << "\n";
  }
  return out.str();
}

}  // namespace

int runCache(const CommonOptions& options, const CacheCommandOptions& cache, const Io& io) {
  Session session = openSession(options, io);
  for (const Diagnostic& d : session.config_problems)
    if (d.severity == Severity::Error) {
      io.err << "port-check: error: " << d.file << ": " << d.message << " [" << d.rule << "]\n";
      return kExitToolError;
    }
  const fs::path root = cacheRoot(session, options, cache.cache_dir);
  const auto& remote = store::sharedCacheSettings().remote;
  const std::string remote_text = remote ? remote->display : "";
  if (cache.action == "clear") {
    std::error_code ec;
    std::uintmax_t removed = 0;
    for (const char* part : {"results", "runs", "lint", "stats.json"}) {
      removed += fs::remove_all(root / part, ec);
      if (ec) {
        io.err << "port-check: error: cannot remove " << (root / part).string() << ": " << ec.message() << "\n";
        return kExitToolError;
      }
    }
    io.out << "removed " << removed << " files and folders of the local cache under " << root.string()
           << (remote ? " (the remote store " + remote_text + " is left as it is: its own policy bounds it)" : "")
           << "\n";
    return kExitClean;
  }
  std::string problem;
  store::CacheStats stats = store::readCacheStats(root, problem);
  if (!problem.empty()) io.err << "port-check: warning: " << problem << "\n";
  std::string text;
  if (options.format == Format::Json) {
    json j = {{"cache_root", root.string()},
              {"remote", remote ? json(remote_text) : json(nullptr)},
              {"stats", store::statsToJson(stats)}};
    text = j.dump(2) + "\n";
  } else {
    text = statsText(root, remote_text, stats);
  }
  return writeCommandOutput(text, options, io) ? kExitClean : kExitToolError;
}

}  // namespace portcheck
