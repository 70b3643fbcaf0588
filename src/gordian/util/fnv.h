// This file holds the one hash the cache's names and the shards use:
// FNV-1a 64, the same on every machine and every run (std::hash is not).
#pragma once

#include <cstdint>
#include <string_view>

namespace gordian::util {

inline constexpr uint64_t kFnvOffset = 14695981039346656037ull;  // 0xcbf29ce484222325

// FNV-1a 64 of s, continuing from h (kFnvOffset to start).
inline uint64_t Fnv1a64(std::string_view s, uint64_t h = kFnvOffset) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace gordian::util
