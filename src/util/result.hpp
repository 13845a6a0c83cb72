// Errors as values: every fallible core function returns result<T> carrying a closed error code.
// The core builds with exceptions off, so nothing here throws.
#pragma once
#include <string>
#include <utility>
#include <variant>

#include "util/errc.hpp"

namespace nostr {

struct error {
  errc code;
  std::string detail;  // short, human-readable; never contains secret material
};

template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  result(error err) : v_(std::move(err)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const error& err() const { return std::get<1>(v_); }
  errc code() const { return ok() ? errc::ok : err().code; }

 private:
  std::variant<T, error> v_;
};

// result<void>: success or an error.
template <>
class [[nodiscard]] result<void> {
 public:
  result() = default;
  result(error err) : err_(std::move(err)), ok_(false) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const error& err() const { return err_; }
  errc code() const { return ok_ ? errc::ok : err_.code; }

 private:
  error err_{errc::ok, {}};
  bool ok_ = true;
};

inline error make_error(errc code, std::string detail = {}) { return error{code, std::move(detail)}; }
// The form most call sites use (a literal detail), out of line: one call instead of a std::string
// construction inlined at each of them (a few KB of wasm across the core).
error make_error(errc code, const char* detail);

}  // namespace nostr

// Propagate an error from an expression returning result<...>.
#define NOSTR_TRY(expr)                             \
  do {                                              \
    auto nostr_try_r_ = (expr);                     \
    if (!nostr_try_r_.ok()) return nostr_try_r_.err(); \
  } while (0)

// Evaluate an expression returning result<T>; on error return it, else move the value into lhs.
#define NOSTR_CONCAT_INNER(a, b) a##b
#define NOSTR_CONCAT(a, b) NOSTR_CONCAT_INNER(a, b)
#define NOSTR_ASSIGN(lhs, expr)                                             \
  auto NOSTR_CONCAT(nostr_assign_r_, __LINE__) = (expr);                    \
  if (!NOSTR_CONCAT(nostr_assign_r_, __LINE__).ok())                        \
    return NOSTR_CONCAT(nostr_assign_r_, __LINE__).err();                   \
  lhs = std::move(NOSTR_CONCAT(nostr_assign_r_, __LINE__)).value()
