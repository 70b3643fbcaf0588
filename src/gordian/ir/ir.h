// This file declares the concurrency IR in memory: what tools/irgen writes
// (docs/ir-format.md) once the reader (reader.h) has checked it. A Program
// holds packages, functions (params, free variables, blocks of ops, loops)
// and externs (functions referenced but not written). Field values stay
// text, checked for their syntax (field_keys.def); expressions are parsed
// on demand (expr.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gordian::ir {

// The format version the generator writes (the first line: "gordian-ir 2").
inline constexpr int kFormatVersion = 2;
// The oldest version it still reads: version 1 is version 2 without the
// var-new and var-store ops and the at= and src= fields of copy and sized.
inline constexpr int kOldestFormatVersion = 1;

enum class OpKind : uint8_t {
#define GORDIAN_IR_OP(Name, text, category, required, optional) Name,
#include "gordian/ir/op_kinds.def"
#undef GORDIAN_IR_OP
};

enum class OpCategory : uint8_t { Chan, Sync, Context, Timer, Call, Control, Flow };

enum class Key : uint8_t {
#define GORDIAN_IR_KEY(Name, text, type) Name,
#include "gordian/ir/field_keys.def"
#undef GORDIAN_IR_KEY
};

enum class ValueType : uint8_t {
  Ref, RefList, Expr, ExprList, Bool, Int, Block, BlockList, Func, FuncList, Text, Pos, Prim
};

// The primitive kinds of prim= (tools/irgen/prims.go has the Go types).
enum class Prim : uint8_t {
  kNone, kChan, kMutex, kRWMutex, kWaitGroup, kOnce, kCond, kContext, kCancel, kTimer, kTicker,
  kHolder  // a struct with primitive fields (or a pointer to one)
};

std::string_view OpKindName(OpKind k);
OpCategory CategoryOf(OpKind k);
bool ParseOpKind(std::string_view text, OpKind* out);
std::string_view KeyName(Key k);
ValueType TypeOf(Key k);
std::string_view PrimName(Prim p);
bool ParsePrim(std::string_view text, Prim* out);
// Every op kind, in table order (for tests and docs checks).
std::vector<OpKind> AllOpKinds();

// A source position: files[file] of the Program, 1-based line and column;
// line 0 when the generator knew none.
struct Pos {
  uint32_t file = 0;
  int line = 0;
  int col = 0;
};

struct Field {
  Key key;
  std::string value;
};

// A record's fields in the order they were written.
struct Fields {
  std::vector<Field> list;
  // The value of k, or nullptr when absent.
  const std::string* Get(Key k) const;
  bool Flag(Key k) const;  // a Bool field: true when present and "1"
};

struct SelectCase {
  int index = 0;
  bool send = false;  // dir=send, else recv
  Pos pos;
  Fields fields;      // ch, val, target
};

struct Op {
  OpKind kind = OpKind::kCall;
  Pos pos;
  Fields fields;
  std::vector<SelectCase> cases;  // a select's cases, in order
  int ir_line = 0;                // its line in the IR text, for messages
};

struct Block {
  int index = 0;
  std::string comment;
  std::vector<int> succs, preds;
  std::vector<Op> ops;
};

// A parameter (p<i>) or free variable (f<i>) of a function.
struct Var {
  std::string ref;  // p0, f1
  std::string name;
  std::string type;
  Prim prim = Prim::kNone;
};

struct Loop {
  int header = 0;
  std::vector<int> blocks;
  Pos pos;
  Fields fields;  // comment, cond, exitwhen, var, init, step, exit
};

struct Function {
  std::string id;    // F<n>
  std::string name;  // go/ssa's name: pkg.F, (*pkg.T).M, pkg.F$1
  std::string pkg;
  std::string kind;  // func, method, closure, init, test, wrapper, instance
  Pos pos;
  std::string parent;  // the enclosing function's id (closures), else ""
  bool exported = false;
  int results = 0;
  std::vector<Var> params, frees;
  std::vector<Block> blocks;
  std::vector<Loop> loops;
};

struct Extern {
  std::string id, name, pkg;
};

struct Package {
  std::string path, name, dir;
  bool tests = false;  // loaded with its _test.go files
};

struct Program {
  int version = kFormatVersion;
  std::string go_version, callgraph, root;
  std::vector<std::string> files;  // Pos::file indexes this
  std::vector<Package> packages;
  std::vector<Function> functions;
  std::vector<Extern> externs;

  // The function or extern with this id (nullptr when none).
  const Function* FindFunction(std::string_view id) const;
  const Extern* FindExtern(std::string_view id) const;
  // "file:line:col" of a position ("" for an unknown one).
  std::string PosString(const Pos& p) const;

  // id -> index in functions (>= 0) or -1 - index in externs.
  std::unordered_map<std::string, long> ids;
};

}  // namespace gordian::ir
