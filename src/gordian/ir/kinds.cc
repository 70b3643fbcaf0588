// This file owns the lookups over the IR's tables (op_kinds.def,
// field_keys.def, the primitive kinds) and the Program's id index.
#include <fmt/format.h>

#include <array>

#include "gordian/ir/ir.h"

namespace gordian::ir {
namespace {

struct OpInfo {
  std::string_view text;
  OpCategory category;
};

constexpr OpInfo kOps[] = {
#define GORDIAN_IR_OP(Name, text, category, required, optional) {text, OpCategory::category},
#include "gordian/ir/op_kinds.def"
#undef GORDIAN_IR_OP
};

struct KeyInfo {
  std::string_view text;
  ValueType type;
};

constexpr KeyInfo kKeys[] = {
#define GORDIAN_IR_KEY(Name, text, type) {text, ValueType::type},
#include "gordian/ir/field_keys.def"
#undef GORDIAN_IR_KEY
};

constexpr std::array<std::string_view, 12> kPrims = {
    "", "chan", "mutex", "rwmutex", "waitgroup", "once", "cond", "context", "cancel",
    "timer", "ticker", "holder"};

}  // namespace

std::string_view OpKindName(OpKind k) { return kOps[static_cast<size_t>(k)].text; }
OpCategory CategoryOf(OpKind k) { return kOps[static_cast<size_t>(k)].category; }

bool ParseOpKind(std::string_view text, OpKind* out) {
  for (size_t i = 0; i < std::size(kOps); i++) {
    if (kOps[i].text == text) {
      *out = static_cast<OpKind>(i);
      return true;
    }
  }
  return false;
}

std::vector<OpKind> AllOpKinds() {
  std::vector<OpKind> out;
  for (size_t i = 0; i < std::size(kOps); i++) out.push_back(static_cast<OpKind>(i));
  return out;
}

std::string_view KeyName(Key k) { return kKeys[static_cast<size_t>(k)].text; }
ValueType TypeOf(Key k) { return kKeys[static_cast<size_t>(k)].type; }

std::string_view PrimName(Prim p) { return kPrims[static_cast<size_t>(p)]; }

bool ParsePrim(std::string_view text, Prim* out) {
  for (size_t i = 1; i < kPrims.size(); i++) {
    if (kPrims[i] == text) {
      *out = static_cast<Prim>(i);
      return true;
    }
  }
  return false;
}

const std::string* Fields::Get(Key k) const {
  for (const Field& f : list) {
    if (f.key == k) return &f.value;
  }
  return nullptr;
}

bool Fields::Flag(Key k) const {
  const std::string* v = Get(k);
  return v != nullptr && *v == "1";
}

const Function* Program::FindFunction(std::string_view id) const {
  auto it = ids.find(std::string(id));
  return it == ids.end() || it->second < 0 ? nullptr : &functions[static_cast<size_t>(it->second)];
}

const Extern* Program::FindExtern(std::string_view id) const {
  auto it = ids.find(std::string(id));
  return it == ids.end() || it->second >= 0 ? nullptr
                                            : &externs[static_cast<size_t>(-1 - it->second)];
}

std::string Program::PosString(const Pos& p) const {
  if (p.line == 0 || p.file >= files.size()) return "";
  return fmt::format("{}:{}:{}", files[p.file], p.line, p.col);
}

}  // namespace gordian::ir
