// This file implements the bump allocator that owns every AST node.
//
// Nodes are trivially destructible (pointers, string_views into the source,
// arena-allocated lists), so the arena frees them all at once without running
// destructors. Allocation is a pointer bump; blocks grow geometrically.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace gordian::syntax {

class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    for (void* b : blocks_) std::free(b);
  }

  void* Allocate(size_t size, size_t align) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(align - 1);
    if (p + size > reinterpret_cast<uintptr_t>(end_)) [[unlikely]] {
      return AllocateSlow(size, align);
    }
    cur_ = reinterpret_cast<char*>(p + size);
    return reinterpret_cast<void*>(p);
  }

  template <class T, class... Args>
  T* New(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>,
                  "arena objects are never destroyed");
    return new (Allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }

  // Copies a range of trivially copyable values into the arena.
  template <class T>
  std::span<T> Copy(const T* data, size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (n == 0) return {};
    T* p = static_cast<T*>(Allocate(n * sizeof(T), alignof(T)));
    std::memcpy(static_cast<void*>(p), data, n * sizeof(T));
    return {p, n};
  }

  size_t bytes_allocated() const { return bytes_; }

 private:
  [[gnu::noinline]] void* AllocateSlow(size_t size, size_t align) {
    size_t want = size + align;
    size_t block = next_block_ < want ? want : next_block_;
    if (next_block_ < (size_t{1} << 24)) next_block_ *= 2;
    char* b = static_cast<char*>(std::malloc(block));
    if (b == nullptr) throw std::bad_alloc();
    blocks_.push_back(b);
    bytes_ += block;
    cur_ = b;
    end_ = b + block;
    return Allocate(size, align);
  }

  char* cur_ = nullptr;
  char* end_ = nullptr;
  size_t next_block_ = 64 * 1024;
  size_t bytes_ = 0;
  std::vector<void*> blocks_;
};

}  // namespace gordian::syntax
