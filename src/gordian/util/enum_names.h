// This file owns the two-way table between the values of an enum and the
// names a file format spells them with (the JSON report's "status",
// "role", ...): one table gives both the name of a value and the value of
// a name, and a static_assert checks that it lists every value, in order.
#pragma once

#include <cstddef>
#include <string_view>

namespace gordian::util {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

// Whether table lists the values 0, 1, 2, ... of E up to last, each once
// and in order (so that a value indexes its row).
template <class E, size_t N>
constexpr bool ListsEveryValue(const EnumName<E> (&table)[N], E last) {
  if (N != static_cast<size_t>(last) + 1) return false;
  for (size_t i = 0; i < N; i++) {
    if (static_cast<size_t>(table[i].value) != i) return false;
  }
  return true;
}

// The name of v; "?" for a value the table does not list.
template <class E, size_t N>
constexpr std::string_view NameOf(const EnumName<E> (&table)[N], E v) {
  size_t i = static_cast<size_t>(v);
  return i < N ? table[i].name : "?";
}

// The value named name, into *out; false when no row has that name.
template <class E, size_t N>
bool ValueNamed(const EnumName<E> (&table)[N], std::string_view name, E* out) {
  for (const EnumName<E>& row : table) {
    if (row.name == name) {
      *out = row.value;
      return true;
    }
  }
  return false;
}

}  // namespace gordian::util
