#include "store/cache_stats.h"

#include <fstream>
#include <iterator>

#include "core/atomic_file.h"
#include "core/file_lock.h"

namespace portcheck::store {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kKeptNotes = 20;

json tierJson(const TierCounters& t) {
  return {{"hits", t.hits},         {"misses", t.misses}, {"bytes_read", t.bytes_read}, {"bytes_written", t.bytes_written},
          {"writes", t.writes},     {"errors", t.errors}, {"rejected", t.rejected}};
}

TierCounters tierFromJson(const json& j) {
  TierCounters t;
  if (!j.is_object()) return t;
  t.hits = j.value("hits", std::uint64_t{0});
  t.misses = j.value("misses", std::uint64_t{0});
  t.bytes_read = j.value("bytes_read", std::uint64_t{0});
  t.bytes_written = j.value("bytes_written", std::uint64_t{0});
  t.writes = j.value("writes", std::uint64_t{0});
  t.errors = j.value("errors", std::uint64_t{0});
  t.rejected = j.value("rejected", std::uint64_t{0});
  return t;
}

void addTier(TierCounters& a, const TierCounters& b) {
  a.hits += b.hits;
  a.misses += b.misses;
  a.bytes_read += b.bytes_read;
  a.bytes_written += b.bytes_written;
  a.writes += b.writes;
  a.errors += b.errors;
  a.rejected += b.rejected;
}

}  // namespace

bool CacheStats::empty() const {
  const TierCounters z;
  auto same = [&](const TierCounters& t) {
    return t.hits == z.hits && t.misses == z.misses && t.bytes_read == 0 && t.bytes_written == 0 && t.writes == 0 &&
           t.errors == 0 && t.rejected == 0;
  };
  return same(local) && same(remote) && evicted_entries == 0 && abandoned_writes == 0 && notes.empty();
}

void CacheStats::add(const CacheStats& o) {
  addTier(local, o.local);
  addTier(remote, o.remote);
  evicted_entries += o.evicted_entries;
  evicted_bytes += o.evicted_bytes;
  abandoned_writes += o.abandoned_writes;
  notes.insert(notes.end(), o.notes.begin(), o.notes.end());
  if (notes.size() > kKeptNotes) notes.erase(notes.begin(), notes.end() - kKeptNotes);
}

json statsToJson(const CacheStats& s) {
  return {{"local", tierJson(s.local)},
          {"remote", tierJson(s.remote)},
          {"evicted_entries", s.evicted_entries},
          {"evicted_bytes", s.evicted_bytes},
          {"abandoned_writes", s.abandoned_writes},
          {"notes", s.notes}};
}

CacheStats statsFromJson(const json& j) {
  if (!j.is_object()) throw std::runtime_error("not an object");
  CacheStats s;
  s.local = tierFromJson(j.value("local", json::object()));
  s.remote = tierFromJson(j.value("remote", json::object()));
  s.evicted_entries = j.value("evicted_entries", std::uint64_t{0});
  s.evicted_bytes = j.value("evicted_bytes", std::uint64_t{0});
  s.abandoned_writes = j.value("abandoned_writes", std::uint64_t{0});
  s.notes = j.value("notes", std::vector<std::string>{});
  return s;
}

fs::path statsPath(const fs::path& cache_root) { return cache_root / "stats.json"; }

CacheStats readCacheStats(const fs::path& cache_root, std::string& problem) {
  std::ifstream in(statsPath(cache_root), std::ios::binary);
  if (!in) return {};
  try {
    return statsFromJson(json::parse(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}));
  } catch (const std::exception& e) {
    problem = statsPath(cache_root).string() + " is not a stats file (counting again from zero)";
    return {};
  }
}

bool addCacheStats(const fs::path& cache_root, const CacheStats& delta, std::string& error) {
  FileLock lock(cache_root / "stats.lock");
  std::string ignored;
  CacheStats total = readCacheStats(cache_root, ignored);
  total.add(delta);
  return writeFileAtomically(statsPath(cache_root), statsToJson(total).dump(1) + "\n", error, /*create_parents=*/true);
}

}  // namespace portcheck::store
