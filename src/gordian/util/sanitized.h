// Whether this build runs under AddressSanitizer, for tests that scale
// their randomized work down there: the sanitizer build checks memory
// safety, which a fraction of the random cases exercises as well, at
// several times the cost per case (CI runs every unit test in both builds).
#pragma once

namespace gordian::util {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace gordian::util
