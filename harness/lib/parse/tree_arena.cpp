#include "parse/tree_arena.h"

#include <sys/mman.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>  // poisons a region's taken-back memory under AddressSanitizer
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

namespace portcheck {

namespace {

constexpr std::size_t kSlots = 16;                         // regions, one per concurrent outermost scope
constexpr std::size_t kSlotBytes = std::size_t{1} << 30;   // address space per region (touched as used)
constexpr std::size_t kKeptBytes = std::size_t{256} << 20; // mapped pages a region keeps between scopes
// Blocks carry no header and are 8-byte aligned, what tree-sitter's structures need (pointers, 32-bit
// lengths): a node's heap data is 88 bytes and most blocks are under 112, so a 16-byte size header and
// 16-byte rounding made trees a fifth larger, in memory every unit faults in and walks.
constexpr std::size_t kAlign = 8;

struct Region {
  char* base = nullptr;
  std::size_t used = 0;
  std::size_t touched = 0;  // high-water mark since the pages were last given back
  char* last = nullptr;     // the most recent block, which realloc may grow in place
};

struct Reservation {
  std::mutex mutex;
  char* base = nullptr;  // kSlots * kSlotBytes, or null when the reservation failed
  bool tried = false;
  bool busy[kSlots] = {};
  Region regions[kSlots];
};

Reservation& reservation() {
  static Reservation r;
  return r;
}

std::atomic<char*> g_base{nullptr};  // read by inTreeArena without the lock

struct ThreadState {
  Region* region = nullptr;  // the region of this thread's open scope
  int depth = 0;             // open scopes
  int paused = 0;            // open pauses
};

thread_local ThreadState t_state;

std::size_t rounded(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

void* regionAlloc(Region& r, std::size_t n) {
  if (n > kSlotBytes) return nullptr;
  n = rounded(n == 0 ? 1 : n);  // a zero-byte block is still a block of its own
  if (r.used + n > kSlotBytes) return nullptr;  // full: malloc takes over
  char* block = r.base + r.used;
  ASAN_UNPOISON_MEMORY_REGION(block, n);
  r.used += n;
  if (r.used > r.touched) r.touched = r.used;
  r.last = block;
  return block;
}

Region* activeRegion() {
  ThreadState& t = t_state;
  return t.paused == 0 ? t.region : nullptr;
}

void* tsMalloc(std::size_t n) {
  if (Region* r = activeRegion())
    if (void* p = regionAlloc(*r, n)) return p;
  return std::malloc(n);
}

void* tsCalloc(std::size_t count, std::size_t size) {
  if (Region* r = activeRegion()) {
    if (size != 0 && count > SIZE_MAX / size) return nullptr;
    if (void* p = regionAlloc(*r, count * size)) {
      std::memset(p, 0, count * size);  // reused pages hold the last scope's trees
      return p;
    }
  }
  return std::calloc(count, size);
}

// This thread's region (its scope active or paused) when `p` lies in what it has handed out; null otherwise.
Region* ownRegionOf(const void* p) {
  Region* r = t_state.region;
  const char* c = static_cast<const char*>(p);
  return r && c >= r->base && c < r->base + r->used ? r : nullptr;
}

// Blocks keep no size: a block moved elsewhere copies what lies between it and the region's fill (all of
// the block, and maybe later blocks' bytes the caller never reads), at most the new size.
void* tsRealloc(void* p, std::size_t n) {
  if (!p) return tsMalloc(n);
  if (!inTreeArena(p)) return std::realloc(p, n);
  Region* own = ownRegionOf(p);
  if (!own) {  // another thread's tree: tree-sitter never grows one (parse/tree_arena.h)
    std::fputs("port-check: internal error: a tree block of another thread's arena was grown\n", stderr);
    std::abort();
  }
  const std::size_t offset = static_cast<std::size_t>(static_cast<char*>(p) - own->base);
  if (p == own->last && own == activeRegion() && n <= kSlotBytes - offset) {  // the newest block grows in place
    const std::size_t end = offset + rounded(n == 0 ? 1 : n);
    if (end > own->used) {
      ASAN_UNPOISON_MEMORY_REGION(own->base + own->used, end - own->used);
      own->used = end;
      if (own->used > own->touched) own->touched = own->used;
    }
    return p;
  }
  const std::size_t extent = own->used - offset;  // before the new block is taken from the region
  void* q = tsMalloc(n);
  if (q) std::memcpy(q, p, std::min(n, extent));
  return q;
}

void tsFree(void* p) {
  if (p && !inTreeArena(p)) std::free(p);
}

// Reserves the address space and hands tree-sitter the allocator, once; false when that failed.
bool reserve(Reservation& res) {
  if (res.tried) return res.base != nullptr;
  res.tried = true;
  void* base = mmap(nullptr, kSlots * kSlotBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0);
  if (base == MAP_FAILED) return false;
  res.base = static_cast<char*>(base);
  for (std::size_t i = 0; i < kSlots; ++i) res.regions[i].base = res.base + i * kSlotBytes;
  g_base.store(res.base, std::memory_order_release);
  return true;
}

// Tree-sitter allocates through these from the start (before any thread does): outside a scope they are malloc.
const bool g_installed = (ts_set_allocator(tsMalloc, tsCalloc, tsRealloc, tsFree), true);

}  // namespace

bool inTreeArena(const void* p) {
  const char* base = g_base.load(std::memory_order_acquire);
  const char* c = static_cast<const char*>(p);
  return base && c >= base && c < base + kSlots * kSlotBytes;
}

TreeArena::TreeArena() {
  ThreadState& t = t_state;
  if (t.depth++ > 0) {
    if (t.region) {
      restore_ = t.region->used;
      t.region->last = nullptr;  // a block from before this scope must not grow into it
    }
    return;
  }
  Reservation& res = reservation();
  std::lock_guard<std::mutex> lock(res.mutex);
  if (!reserve(res)) return;
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (res.busy[i]) continue;
    res.busy[i] = true;
    slot_ = static_cast<int>(i);
    t.region = &res.regions[i];
    return;
  }
}

TreeArena::~TreeArena() {
  ThreadState& t = t_state;
  --t.depth;
  if (slot_ < 0) {
    if (t.region) {
      ASAN_POISON_MEMORY_REGION(t.region->base + restore_, t.region->used - restore_);
      t.region->used = restore_;
      t.region->last = nullptr;
    }
    return;
  }
  Region& r = *t.region;
  ASAN_POISON_MEMORY_REGION(r.base, r.used);  // a tree used after its scope is a use-after-free under ASan
  r.used = 0;
  r.last = nullptr;
  if (r.touched > kKeptBytes) {  // a huge unit: give the pages beyond what a next one reuses back
    madvise(r.base + kKeptBytes, r.touched - kKeptBytes, MADV_DONTNEED);
    r.touched = kKeptBytes;
  }
  t.region = nullptr;
  Reservation& res = reservation();
  std::lock_guard<std::mutex> lock(res.mutex);
  res.busy[slot_] = false;
}

TreeArenaPause::TreeArenaPause() { ++t_state.paused; }
TreeArenaPause::~TreeArenaPause() { --t_state.paused; }

}  // namespace portcheck
