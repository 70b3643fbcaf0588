// This file implements the stack bounds query and the stack segments of
// stack_guard.h with POSIX threads (std::thread cannot choose a stack size).
#include "gordian/syntax/stack_guard.h"

#include <pthread.h>

#include <cstdio>
#include <cstdlib>

namespace gordian::syntax {
namespace internal {

uintptr_t QueryStackBottom() {
  uintptr_t bottom = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) bottom = reinterpret_cast<uintptr_t>(addr);
    pthread_attr_destroy(&attr);
  }
  stack_bottom = bottom;
  return bottom;
}

uintptr_t InitStackLow() {
  uintptr_t low = 1;  // unknown bounds: never report a low stack
  // The lowest page may be a guard page: keep clear of it.
  if (uintptr_t bottom = StackBottom(); bottom != 0) low = bottom + 64 * 1024;
  stack_low = low;
  return low;
}

}  // namespace internal

namespace {

void* Trampoline(void* arg) {
  (*static_cast<FunctionRef<void()>*>(arg))();
  return nullptr;
}

}  // namespace

void RunOnNewStack(FunctionRef<void()> fn) {
  constexpr size_t kStackSize = size_t{256} << 20;  // reserved, touched on demand
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, kStackSize) != 0 ||
      pthread_create(&thread, &attr, Trampoline, &fn) != 0) {
    std::fprintf(stderr, "gordian: cannot create a thread to continue a deep recursion\n");
    std::abort();
  }
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
}

}  // namespace gordian::syntax
