// This file defines FunctionRef, a non-owning reference to a callable.
//
// Tree walks take their callback as a FunctionRef rather than a std::function:
// it is two pointers, never allocates, and the walk can live in a .cc file
// instead of being a template instantiated in every caller. The referenced
// callable must outlive the FunctionRef (pass lambdas directly as arguments).
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace gordian::syntax {

template <class Sig>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
             std::is_invocable_r_v<R, F&, Args...>)
  FunctionRef(F&& f)  // NOLINT: implicit by design, like std::function
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* obj, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(
              std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

}  // namespace gordian::syntax
