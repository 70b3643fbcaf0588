// This file owns protection against stack overflow in the recursive tree
// algorithms (printer, EqualTrees, walks, dump), and the query of the
// calling thread's stack bounds that it and the parser's depth guard use.
//
// The parser accepts nesting up to 10000 levels, and a generated file (a
// long else-if chain, deeply nested literals) gets there; a recursive pass
// over such a tree can need more than the 8 MB of a default stack, and far
// more under sanitizers, whose frames are ten times larger. Rather than fail
// on deep trees, a recursive pass calls StackIsLow() at each level and, when
// less than kStackReserve bytes remain, continues the recursion on a fresh
// thread with a large stack (RunOnNewStack), waiting for it: the stack grows
// in segments, and shallow trees pay one compare per level.
#pragma once

#include <cstdint>

#include "gordian/syntax/function_ref.h"

namespace gordian::syntax {

// Bytes that must remain on the stack to enter one more level of a pass.
inline constexpr uintptr_t kStackReserve = uintptr_t{1} << 20;

namespace internal {
// This thread's stack bottom (see StackBottom), kStackNotQueried until the
// first query.
inline constexpr uintptr_t kStackNotQueried = ~uintptr_t{0};
inline thread_local uintptr_t stack_bottom = kStackNotQueried;
uintptr_t QueryStackBottom();
// Lowest usable address of this thread's stack, 0 until first computed.
inline thread_local uintptr_t stack_low = 0;
uintptr_t InitStackLow();
}  // namespace internal

// Lowest address of the calling thread's stack, or 0 when the system does
// not tell. The system is asked once per thread and the answer kept, since a
// thread's stack never moves: for the main thread pthread_getattr_np parses
// /proc/self/maps, which costs more than parsing a small Go file.
inline uintptr_t StackBottom() {
  uintptr_t bottom = internal::stack_bottom;
  if (bottom == internal::kStackNotQueried) [[unlikely]] bottom = internal::QueryStackBottom();
  return bottom;
}

// Whether fewer than kStackReserve bytes of stack remain on this thread.
inline bool StackIsLow() {
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  uintptr_t low = internal::stack_low;
  if (low == 0) [[unlikely]] low = internal::InitStackLow();
  return here < low + kStackReserve;
}

// Runs fn on a new thread with a 256 MB stack and returns when it has
// finished. Aborts if no thread can be created.
void RunOnNewStack(FunctionRef<void()> fn);

}  // namespace gordian::syntax
