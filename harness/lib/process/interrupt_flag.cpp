#include "process/interrupt_flag.h"

namespace portcheck {

namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

void raise_flag(int) { g_interrupted = true; }

}  // namespace

InterruptFlag::InterruptFlag() {
  g_interrupted = false;
  struct sigaction on {};
  on.sa_handler = raise_flag;
  sigemptyset(&on.sa_mask);
  sigaction(SIGINT, &on, &old_int_);
  sigaction(SIGTERM, &on, &old_term_);
}

InterruptFlag::~InterruptFlag() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

const std::atomic<bool>* InterruptFlag::flag() const { return &g_interrupted; }

}  // namespace portcheck
