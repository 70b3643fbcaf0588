// This file implements the Go parser: Parse turns one SourceFile into a File.
//
// The structure follows Go's cmd/compile/internal/syntax/parser.go closely
// (method names, error messages, follow lists and the composite-literal
// ambiguity rule are the same), with these differences:
// - Every node records begin/end (its byte extent) besides pos.
// - Parentheses are always kept as ParenExpr (also around types), so the
//   tree reproduces the source exactly; Go's parser drops most of them.
// - Lists are built on a reusable scratch stack and copied into the arena
//   when complete: no per-list heap allocation.
// - Nesting depth is limited ("exceeded max nesting depth") so that no input
//   can overflow the stack.
// - gc's rule "at most one syntax error per line" is applied here, so that
//   the handler sees what the Go compiler would print.
//
// Positions. pos is the identifying token as in Go's syntax package (the
// operator of an Operation, "(" of a call, ":" of a LabeledStmt, ":=" or "="
// of an AssignStmt, "range" of a RangeClause, the first name of a spec),
// except FuncDecl.pos, which is the "func" keyword. Extents (begin/end) equal
// go/ast's Pos()/End() wherever both trees have the node (checked over
// GOROOT/src by goroot_test.cc), and:
// - an ungrouped declaration starts at its keyword ("var x int"); a grouped
//   one is just its spec ("x int"), the Group giving the parentheses;
// - a FuncDecl's FuncType starts at the "(" of its parameters;
// - of fields declared together (`a, b int "tag"`), which share one type
//   and tag, each but the last covers just its name ("a"), and the last one
//   its name through the type and tag ("b int "tag"");
// - a TypeSwitchGuard spans its lhs (`y := x.(type)`);
// - an EmptyStmt covers an explicit ";", and is zero-width otherwise;
// - a node made after a syntax error is zero-width at the token where the
//   error was found, and lies inside its parents (their extent grows to it).
//
// Excluding methods returning lists, parse methods named …OrNull may return
// null; all others return a valid node (BadExpr where parsing failed).
#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "gordian/syntax/branches.h"
#include "gordian/syntax/scanner.h"
#include "gordian/syntax/syntax.h"

namespace gordian::syntax {
namespace {

// Nesting beyond this many levels (parentheses, blocks, unary operators,
// type constructors...) is reported as an error instead of recursing further.
constexpr int kMaxDepth = 10000;
// Independently of the depth, stop recursing once this much stack is in use,
// or three quarters of what the thread has left when Parse starts, whichever
// is less (protects builds with large frames, e.g. sanitizers, and threads
// with small stacks). A release build needs about 260 bytes per level of
// parentheses, so 10000 levels fit comfortably.
constexpr uintptr_t kMaxStackBytes = uintptr_t{6} << 20;

// The stack budget of the calling thread, measured from here.
uintptr_t StackBudget() {
  uintptr_t budget = kMaxStackBytes;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr) {
      uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
      uintptr_t lo = reinterpret_cast<uintptr_t>(addr);
      if (here > lo) budget = std::min(budget, (here - lo) / 4 * 3);
    }
    pthread_attr_destroy(&attr);
  }
  return budget;
}

constexpr TokenSet Bits(std::initializer_list<Token> toks) {
  TokenSet s = 0;
  for (Token t : toks) s |= TokenBit(t);
  return s;
}

// The stop set contains keywords that start a statement. They are good
// synchronization points in case of syntax errors and (usually) shouldn't be
// skipped over.
constexpr TokenSet kStopSet =
    Bits({Token::Break, Token::Const, Token::Continue, Token::Defer, Token::Fallthrough,
          Token::For, Token::Go, Token::Goto, Token::If, Token::Return, Token::Select,
          Token::Switch, Token::Type, Token::Var});

// tokstring returns the English word for selected punctuation tokens, for
// more readable error messages.
std::string tokstring(Token tok) {
  switch (tok) {
    case Token::Comma: return "comma";
    case Token::Semi: return "semicolon or newline";
    default: break;
  }
  if (tok >= Token::Break && tok <= Token::Var) {
    return fmt::format("keyword {}", TokenString(tok));
  }
  return std::string(TokenString(tok));
}

Expr* Unparen(Expr* x) {
  while (auto* p = As<ParenExpr>(x)) x = p->x;
  return x;
}

// isTypeElem reports whether x is a (possibly parenthesized) type element
// expression. The result is false if x could be a type element OR an ordinary
// (value) expression.
bool isTypeElem(Expr* x) {
  switch (x->kind) {
    case NodeKind::ArrayType:
    case NodeKind::StructType:
    case NodeKind::FuncType:
    case NodeKind::InterfaceType:
    case NodeKind::SliceType:
    case NodeKind::MapType:
    case NodeKind::ChanType:
      return true;
    case NodeKind::Operation: {
      auto* op = static_cast<Operation*>(x);
      return isTypeElem(op->x) || (op->y != nullptr && isTypeElem(op->y)) ||
             op->op == Op::Tilde;
    }
    case NodeKind::ParenExpr:
      return isTypeElem(static_cast<ParenExpr*>(x)->x);
    default:
      return false;
  }
}

// isValue reports whether x syntactically must be a value (and not a type)
// expression.
bool isValue(Expr* x) {
  switch (x->kind) {
    case NodeKind::BasicLit:
    case NodeKind::CompositeLit:
    case NodeKind::FuncLit:
    case NodeKind::SliceExpr:
    case NodeKind::AssertExpr:
    case NodeKind::TypeSwitchGuard:
    case NodeKind::CallExpr:
      return true;
    case NodeKind::Operation: {
      auto* op = static_cast<Operation*>(x);
      return op->op != Op::Mul || op->y != nullptr;  // *T may be a type
    }
    case NodeKind::ParenExpr:
      return isValue(static_cast<ParenExpr*>(x)->x);
    case NodeKind::IndexExpr: {
      auto* ix = static_cast<IndexExpr*>(x);
      return isValue(ix->x) || isValue(ix->index);
    }
    default:
      return false;
  }
}

bool isEmptyFuncDecl(Decl* d) {
  auto* f = As<FuncDecl>(d);
  return f != nullptr && f->body == nullptr;
}

class Parser {
 public:
  Parser(const SourceFile& src, Arena* arena, const ErrorHandler& errh, unsigned mode)
      : src_(src),
        arena_(arena),
        errh_(errh),
        mode_(mode),
        scanner_errh_([this](const Error& e) { errorAt(e.pos, e.msg); }),
        s_(src, &scanner_errh_, &comments_) {}

  ParseResult Run();

 private:
  friend class Nest;

  // --------------------------------------------------------------------------
  // Tokens

  void next() {
    // Semicolons (explicit or automatic) never belong to a node's extent.
    if (s_.tok != Token::Semi) prev_end_ = s_.end;
    s_.Next();
  }

  bool got(Token tok) {
    if (s_.tok == tok) {
      next();
      return true;
    }
    return false;
  }

  void want(Token tok) {
    if (!got(tok)) [[unlikely]] wantFailed(tok);
  }

  // The error paths are kept out of line (and out of the recursive
  // productions' frames: deep nesting costs less stack).
  [[gnu::noinline, gnu::cold]] void wantFailed(Token tok) {
    syntaxError("expected " + tokstring(tok));
    advance(0);
  }

  // gotAssign is like got(Assign) but it also accepts ":=" (and reports an
  // error) for better parser error recovery.
  bool gotAssign() {
    switch (s_.tok) {
      case Token::Define:
        syntaxError("expected =");
        [[fallthrough]];
      case Token::Assign:
        next();
        return true;
      default:
        return false;
    }
  }

  bool gotOp(Op op) {
    return s_.tok == Token::Operator && s_.op == op;
  }

  // --------------------------------------------------------------------------
  // Error handling

  uint32_t lineOf(Pos pos) const {
    if (!src_.Contains(pos)) return 0;
    return src_.PositionAt(src_.OffsetOf(pos)).line;
  }

  // errorAt reports an error at the given position. Like gc, it reports at
  // most one syntax error per line, and drops exact duplicates.
  [[gnu::noinline, gnu::cold]] void errorAt(Pos pos, std::string msg) {
    if (quiet_) return;
    if (msg.starts_with("syntax error")) {
      uint32_t line = lineOf(pos);
      if (have_syntax_line_ && line == last_syntax_line_) return;
      have_syntax_line_ = true;
      last_syntax_line_ = line;
    }
    if (error_count_ > 0 && pos == last_pos_ && msg == last_msg_) return;
    last_pos_ = pos;
    last_msg_ = msg;
    Error err{pos, std::move(msg)};
    if (error_count_ == 0) first_ = err;
    error_count_++;
    if (errh_) errh_(err);
  }

  // The current token as users see it in "unexpected X".
  std::string tokDesc() const {
    switch (s_.tok) {
      case Token::Name: return fmt::format("name {}", s_.lit);
      case Token::Semi: return std::string(s_.lit.empty() ? "semicolon" : s_.lit);
      case Token::Literal: return fmt::format("literal {}", s_.lit);
      case Token::Operator: return std::string(OpString(s_.op));
      case Token::AssignOp: return fmt::format("{}=", OpString(s_.op));
      case Token::IncOp: return fmt::format("{0}{0}", OpString(s_.op));
      default: return tokstring(s_.tok);
    }
  }

  // syntaxErrorAt reports a syntax error at the given position.
  [[gnu::noinline, gnu::cold]] void syntaxErrorAt(Pos pos, std::string_view msg) {
    if (s_.tok == Token::EOF_ && error_count_ > 0) {
      return;  // avoid meaningless follow-up errors
    }
    // Don't even build the message if errorAt would drop it (the current
    // token may be a megabyte-long literal).
    if (quiet_ || (have_syntax_line_ && lineOf(pos) == last_syntax_line_)) return;
    // add punctuation etc. as needed to msg
    std::string m;
    if (msg.empty()) {
      // nothing to do
    } else if (msg.starts_with("in ") || msg.starts_with("at ") || msg.starts_with("after ")) {
      m = fmt::format(" {}", msg);
    } else if (msg.starts_with("expected ")) {
      m = fmt::format(", {}", msg);
    } else {
      // plain error - we don't care about current token
      errorAt(pos, fmt::format("syntax error: {}", msg));
      return;
    }
    errorAt(pos, fmt::format("syntax error: unexpected {}{}", tokDesc(), m));
  }

  [[gnu::noinline, gnu::cold]] void syntaxError(std::string_view msg) {
    syntaxErrorAt(s_.pos, msg);
  }
  [[gnu::noinline, gnu::cold]] void error(std::string_view msg) {
    errorAt(s_.pos, std::string(msg));
  }
  // Formatting variants: out of line, so the formatting never lands in the
  // frame of a recursive production.
  template <class... A>
  [[gnu::noinline, gnu::cold]] void syntaxErrorf(fmt::format_string<A...> f, A&&... args) {
    syntaxErrorAt(s_.pos, fmt::format(f, std::forward<A>(args)...));
  }
  template <class... A>
  [[gnu::noinline, gnu::cold]] void syntaxErrorAtf(Pos pos, fmt::format_string<A...> f,
                                                   A&&... args) {
    syntaxErrorAt(pos, fmt::format(f, std::forward<A>(args)...));
  }
  template <class... A>
  [[gnu::noinline, gnu::cold]] void errorAtf(Pos pos, fmt::format_string<A...> f, A&&... args) {
    errorAt(pos, fmt::format(f, std::forward<A>(args)...));
  }

  // advance consumes tokens until it finds a token of the stop set or
  // follow list. The stop set is only considered if we are inside a function
  // (fnest_ > 0). The follow list is the set of valid tokens that can follow
  // a production; if it is empty, exactly one (non-EOF) token is consumed to
  // ensure progress.
  [[gnu::noinline]] void advance(TokenSet followlist) {
    TokenSet followset = TokenBit(Token::EOF_);  // don't skip over EOF
    if (followlist != 0) {
      if (fnest_ > 0) followset |= kStopSet;
      followset |= followlist;
    }
    while (!InSet(s_.tok, followset)) {
      next();
      if (followlist == 0) break;
    }
  }

  // Consumes the rest of the input without reporting anything.
  [[gnu::noinline, gnu::cold]] void drain() {
    bool q = quiet_;
    quiet_ = true;
    while (s_.tok != Token::EOF_) next();
    quiet_ = q;
  }

  [[gnu::noinline, gnu::cold]] void tooDeep() {
    if (!too_deep_) {
      too_deep_ = true;
      errorAt(s_.pos, "exceeded max nesting depth");
    }
    drain();
  }

  // --------------------------------------------------------------------------
  // Nodes and lists

  template <class T>
  T* make(Pos pos, Pos begin) {
    T* n = arena_->New<T>();
    n->pos = pos;
    n->begin = begin;
    n->end = begin;
    return n;
  }
  template <class T>
  T* make(Pos pos) {
    return make<T>(pos, pos);
  }

  // Sets the end of n to the end of the last token consumed, or to the
  // position of a zero-width node (BadExpr, "_") made after it at the current
  // token: n contains that node, which must lie inside n's extent.
  // A node that consumed nothing is zero-width at its begin and counts as
  // such.
  template <class T>
  T* finish(T* n) {
    n->end = std::max({prev_end_, n->begin, zero_end_});
    if (n->end == n->begin) zero_end_ = std::max(zero_end_, n->begin);
    return n;
  }

  // A zero-width node at pos (a placeholder made after an error).
  template <class T>
  T* zero(Pos pos) {
    T* n = make<T>(pos);
    zero_end_ = std::max(zero_end_, pos);
    return n;
  }

  Name* fakeName() {
    Name* n = zero<Name>(s_.pos);
    n->value = "_";
    return n;
  }

  Name* newName(Pos pos, Pos end, std::string_view value) {
    Name* n = make<Name>(pos);
    n->end = end;
    n->value = value;
    return n;
  }

  BadExpr* badExpr() { return zero<BadExpr>(s_.pos); }

  size_t mark() const { return scratch_.size(); }
  void push(Node* n) { scratch_.push_back(n); }

  // Moves the scratch entries above m into an arena list.
  template <class T>
  List<T> take(size_t m) {
    size_t n = scratch_.size() - m;
    if (n == 0) return {};
    T** p = static_cast<T**>(arena_->Allocate(n * sizeof(T*), alignof(T*)));
    for (size_t i = 0; i < n; i++) p[i] = static_cast<T*>(scratch_[m + i]);
    scratch_.resize(m);
    return {p, n};
  }

  std::string_view text(const Node* n) const {
    if (!src_.Contains(n->begin) || !src_.Contains(n->end) || n->end < n->begin) return {};
    return src_.content().substr(src_.OffsetOf(n->begin), n->end - n->begin);
  }

  // exprString formats x the way Go's syntax.String does for the common
  // forms (binary operators spaced, lists comma-separated); anything else is
  // quoted from the source. Only error messages use it.
  std::string exprString(const Expr* x, int depth = 0) const {
    if (x == nullptr) return "";
    if (depth > 50) return std::string(text(x));
    auto str = [&](const Expr* e) { return exprString(e, depth + 1); };
    auto join = [&](std::span<Expr* const> l) {
      std::string out;
      for (size_t i = 0; i < l.size(); i++) out += (i > 0 ? ", " : "") + str(l[i]);
      return out;
    };
    switch (x->kind) {
      case NodeKind::Name: return std::string(static_cast<const Name*>(x)->value);
      case NodeKind::BasicLit: return std::string(static_cast<const BasicLit*>(x)->value);
      case NodeKind::ParenExpr: return "(" + str(static_cast<const ParenExpr*>(x)->x) + ")";
      case NodeKind::SelectorExpr: {
        auto* s = static_cast<const SelectorExpr*>(x);
        return str(s->x) + "." + str(s->sel);
      }
      case NodeKind::IndexExpr: {
        auto* ix = static_cast<const IndexExpr*>(x);
        return str(ix->x) + "[" + str(ix->index) + "]";
      }
      case NodeKind::ListExpr: return join(static_cast<const ListExpr*>(x)->elems);
      case NodeKind::CallExpr: {
        auto* c = static_cast<const CallExpr*>(x);
        return str(c->fun) + "(" + join(c->args) + (c->has_dots ? "...)" : ")");
      }
      case NodeKind::KeyValueExpr: {
        auto* kv = static_cast<const KeyValueExpr*>(x);
        return str(kv->key) + ": " + str(kv->value);
      }
      case NodeKind::Operation: {
        auto* op = static_cast<const Operation*>(x);
        if (op->y == nullptr) return std::string(OpString(op->op)) + str(op->x);
        return str(op->x) + " " + std::string(OpString(op->op)) + " " + str(op->y);
      }
      default:
        return std::string(text(x));
    }
  }

  // emphasize returns the string of x, with (top-level) binary expressions
  // enclosed in parentheses.
  std::string emphasize(const Expr* x) const {
    auto* op = As<Operation>(x);
    if (op != nullptr && op->y != nullptr) return "(" + exprString(x) + ")";
    return exprString(x);
  }

  // stmtString formats the simple statements that can end up in a header.
  std::string stmtString(const SimpleStmt* s) const {
    if (auto* a = As<AssignStmt>(s)) {
      if (a->rhs == nullptr) return exprString(a->lhs) + std::string(OpString(a->op)) + std::string(OpString(a->op));
      std::string op = a->op == Op::Def ? ":=" : std::string(OpString(a->op)) + "=";
      return exprString(a->lhs) + " " + op + " " + exprString(a->rhs);
    }
    if (auto* snd = As<SendStmt>(s)) return exprString(snd->chan) + " <- " + exprString(snd->value);
    return std::string(text(s));
  }

  // --------------------------------------------------------------------------
  // Productions (defined below)

  File* file();
  template <class F>
  Pos list(std::string_view context, Token sep, Token close, F f);
  [[gnu::noinline, gnu::cold]] void listError(std::string_view context, Token sep, Token close) {
    syntaxError(fmt::format("in {}; possibly missing {} or {}", context, tokstring(sep),
                            tokstring(close)));
    advance(Bits({Token::Rparen, Token::Rbrack, Token::Rbrace}));
  }
  void appendGroup(Pos keyword, Decl* (Parser::*f)(Group*));
  Decl* importDecl(Group* group);
  Decl* constDecl(Group* group);
  Decl* typeDecl(Group* group);
  Decl* varDecl(Group* group);
  FuncDecl* funcDeclOrNull(Pos kw);
  BlockStmt* funcBody();

  Expr* expr() { return binaryExpr(nullptr, 0); }
  Expr* binaryExpr(Expr* x, int prec);
  Expr* unaryExpr();
  [[gnu::noinline]] Expr* reassociateChan(Pos pos, Expr* x);
  CallStmt* callStmt();
  Expr* operand();
  Expr* pexpr(Expr* x);
  Expr* bare_complitexpr();
  CompositeLit* complitexpr();

  Expr* type_();
  Operation* newIndirect(Pos pos, Expr* typ);
  Expr* typeOrNull();
  [[gnu::noinline]] Expr* typeInstance(Expr* typ);
  FuncType* funcType(std::string_view context, Pos begin, List<Field>* tparams);
  Expr* arrayType(Pos pos, Expr* len);
  Expr* sliceType(Pos pos);
  Expr* chanElem();
  [[gnu::noinline]] StructType* structType();
  [[gnu::noinline]] InterfaceType* interfaceType();
  List<Field> funcResult();
  void fieldDecl();
  void addField(Pos pos, Pos begin, Name* name, Expr* typ, BasicLit* tag);
  Expr* arrayOrTArgs();
  BasicLit* oliteral();
  Field* methodDecl();
  Field* embeddedElem(Field* f);
  Expr* embeddedTerm();
  Field* paramDeclOrNull(Name* name, Token follow);
  List<Field> paramList(Name* name, Expr* typ, Token close, bool requireNames, bool dddok);
  std::pair<Name*, Expr*> extractName(Expr* x, bool force);

  SimpleStmt* simpleStmt(Expr* lhs, Token keyword);
  RangeClause* newRangeClause(Expr* lhs, bool def);
  AssignStmt* newAssignStmt(Pos pos, Op op, Expr* lhs, Expr* rhs);
  Stmt* labeledStmtOrNull(Name* label);
  BlockStmt* blockStmt(std::string_view context);
  DeclStmt* declStmt(Decl* (Parser::*f)(Group*));
  Stmt* forStmt();
  void header(Token keyword, SimpleStmt** init, Expr** cond, SimpleStmt** post);
  IfStmt* ifStmt();
  [[gnu::noinline, gnu::cold]] void badCondition(SimpleStmt* condStmt);
  SwitchStmt* switchStmt();
  SelectStmt* selectStmt();
  CaseClause* caseClause();
  CommClause* commClause();
  Stmt* stmtOrNull();
  List<Stmt> stmtList();
  List<Expr> argList(bool* hasDots, Pos* rparen);

  Name* name();
  List<Name> nameList(Name* first);
  Expr* qualifiedName(Name* name);
  Expr* exprList();
  Expr* typeList(bool strict, bool* comma);
  Expr* makeList(size_t m);

  // --------------------------------------------------------------------------
  // State

  const SourceFile& src_;
  Arena* arena_;
  const ErrorHandler& errh_;
  unsigned mode_;
  ErrorHandler scanner_errh_;
  std::vector<Comment> comments_;
  Scanner s_;

  Pos prev_end_ = kNoPos;  // end of the last non-semicolon token consumed
  Pos zero_end_ = kNoPos;  // position of the last zero-width node made (see finish)
  int fnest_ = 0;          // function nesting level (for error handling)
  int xnest_ = 0;          // expression nesting level (for complit ambiguity resolution)
  int depth_ = 0;          // recursion depth (see Nest)
  uintptr_t stack_base_ = 0;
  uintptr_t stack_budget_ = kMaxStackBytes;
  bool too_deep_ = false;
  bool quiet_ = false;

  int error_count_ = 0;
  int branch_errors_ = 0;  // how many of error_count_ CheckBranches reported
  Error first_;
  bool have_syntax_line_ = false;
  uint32_t last_syntax_line_ = 0;
  Pos last_pos_ = kNoPos;
  std::string last_msg_;

  // Scratch stacks for lists under construction (see mark/take): reused
  // across the whole file so that building a list allocates nothing.
  std::vector<Node*> scratch_;
  std::vector<Node*> tags_;  // struct tags, parallel to the fields on scratch_
};

// Nest guards a recursive production: beyond kMaxDepth levels (or
// kMaxStackBytes of stack) it reports an error and skips to EOF, which makes
// every active production return.
class Nest {
 public:
  explicit Nest(Parser* p) : p_(p) {
    uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    if (++p->depth_ > kMaxDepth || p->stack_base_ - here > p->stack_budget_) [[unlikely]] {
      p->tooDeep();
    }
  }
  ~Nest() { --p_->depth_; }
  Nest(const Nest&) = delete;
  Nest& operator=(const Nest&) = delete;

 private:
  Parser* p_;
};

// ----------------------------------------------------------------------------
// Package files

ParseResult Parser::Run() {
  stack_base_ = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  stack_budget_ = StackBudget();
  prev_end_ = src_.base();
  scratch_.reserve(256);
  s_.Next();
  File* f = file();
  f->comments = arena_->Copy(comments_.data(), comments_.size());
  ParseResult r;
  r.file = f;
  r.error_count = error_count_;
  r.first_error = first_;
  return r;
}

// SourceFile = PackageClause ";" { ImportDecl ";" } { TopLevelDecl ";" } .
File* Parser::file() {
  File* f = make<File>(s_.pos, src_.base());
  f->source = &src_;
  f->end = src_.base() + src_.size();

  // PackageClause
  if (!got(Token::Package)) {
    syntaxError("package statement must be first");
    f->pkg_name = fakeName();
    drain();
    f->eof = s_.pos;
    return f;
  }
  f->pkg_name = name();
  want(Token::Semi);

  // don't bother continuing if package clause has errors
  if (error_count_ > 0) {
    drain();
    f->eof = s_.pos;
    return f;
  }

  // Accept import declarations anywhere for error tolerance, but complain.
  // { ( ImportDecl | TopLevelDecl ) ";" }
  const TokenSet follow =
      Bits({Token::Import, Token::Const, Token::Type, Token::Var, Token::Func});
  size_t m = mark();
  Token prev = Token::Import;
  while (s_.tok != Token::EOF_) {
    if (s_.tok == Token::Import && prev != Token::Import) {
      syntaxError("imports must appear before other declarations");
    }
    prev = s_.tok;

    Pos kw = s_.pos;
    switch (s_.tok) {
      case Token::Import:
        next();
        appendGroup(kw, &Parser::importDecl);
        break;
      case Token::Const:
        next();
        appendGroup(kw, &Parser::constDecl);
        break;
      case Token::Type:
        next();
        appendGroup(kw, &Parser::typeDecl);
        break;
      case Token::Var:
        next();
        appendGroup(kw, &Parser::varDecl);
        break;
      case Token::Func:
        next();
        if (FuncDecl* d = funcDeclOrNull(kw)) push(d);
        break;
      default:
        if (s_.tok == Token::Lbrace && scratch_.size() > m &&
            isEmptyFuncDecl(static_cast<Decl*>(scratch_.back()))) {
          // opening { of function declaration on next line
          syntaxError("unexpected semicolon or newline before {");
        } else {
          syntaxError("non-declaration statement outside function body");
        }
        advance(follow);
        continue;
    }

    if (s_.tok != Token::EOF_ && !got(Token::Semi)) {
      syntaxError("after top level declaration");
      advance(follow);
    }
  }
  // s_.tok == EOF
  f->decls = take<Decl>(m);
  f->eof = s_.pos;
  return f;
}

// ----------------------------------------------------------------------------
// Declarations

// list parses a possibly empty, sep-separated list of elements, optionally
// followed by sep, and closed by close (or EOF). sep must be one of Comma or
// Semi, and close must be one of Rparen, Rbrace, or Rbrack.
//
// For each list element, f is called. Specifically, unless we're at close
// (or EOF), f is called at least once. After f returns true, no more list
// elements are accepted. list returns the position of the closing token.
//
// list = [ f { sep f } [sep] ] close .
template <class F>
Pos Parser::list(std::string_view context, Token sep, Token close, F f) {
  bool done = false;
  while (s_.tok != Token::EOF_ && s_.tok != close && !done) {
    done = f();
    // sep is optional before close
    if (!got(sep) && s_.tok != close) {
      listError(context, sep, close);
      if (s_.tok != close) {
        // position could be better but we had an error so we don't care
        return s_.pos;
      }
    }
  }
  Pos pos = s_.pos;
  want(close);
  return pos;
}

// appendGroup(f) = f | "(" { f ";" } ")" . // ";" is optional before ")"
// The declarations are pushed on the scratch stack. keyword is the position
// of the declaration keyword: the extent of an ungrouped declaration starts
// there.
void Parser::appendGroup(Pos keyword, Decl* (Parser::*f)(Group*)) {
  if (s_.tok == Token::Lparen) {
    Group* g = arena_->New<Group>();
    g->lparen = s_.pos;
    next();
    g->rparen = list("grouped declaration", Token::Semi, Token::Rparen, [&] {
      if (Decl* x = (this->*f)(g)) push(x);
      return false;
    });
  } else {
    if (Decl* x = (this->*f)(nullptr)) {
      x->begin = keyword;
      push(x);
    }
  }
}

// ImportSpec = [ "." | PackageName ] ImportPath .
// ImportPath = string_lit .
Decl* Parser::importDecl(Group* group) {
  ImportDecl* d = make<ImportDecl>(s_.pos);
  d->group = group;

  switch (s_.tok) {
    case Token::Name:
      d->local_pkg_name = name();
      break;
    case Token::Dot:
      d->local_pkg_name = newName(s_.pos, s_.end, ".");
      next();
      break;
    default:
      break;
  }
  d->path = oliteral();
  if (d->path == nullptr) {
    syntaxError("missing import path");
    advance(Bits({Token::Semi, Token::Rparen}));
    return finish(d);
  }
  if (!d->path->bad && d->path->lit_kind != LitKind::String) {
    syntaxErrorAt(d->path->pos, "import path must be a string");
    d->path->bad = true;
  }
  return finish(d);
}

// ConstSpec = IdentifierList [ [ Type ] "=" ExpressionList ] .
Decl* Parser::constDecl(Group* group) {
  ConstDecl* d = make<ConstDecl>(s_.pos);
  d->group = group;

  d->names = nameList(name());
  if (s_.tok != Token::EOF_ && s_.tok != Token::Semi && s_.tok != Token::Rparen) {
    d->type = typeOrNull();
    if (gotAssign()) d->values = exprList();
  }
  return finish(d);
}

// TypeSpec = identifier [ TypeParams ] [ "=" ] Type .
Decl* Parser::typeDecl(Group* group) {
  TypeDecl* d = make<TypeDecl>(s_.pos);
  d->group = group;

  d->name = name();
  if (s_.tok == Token::Lbrack) {
    // d.name "[" ...
    // array/slice type or type parameter list
    Pos pos = s_.pos;
    next();
    switch (s_.tok) {
      case Token::Name: {
        // We may have an array type or a type parameter list. In either case
        // we expect an expression x (which may just be a name, or a more
        // complex expression) which we can analyze further.
        //
        // A type parameter list may have a type bound starting with a "[" as
        // in: P []E. In that case, simply parsing an expression would lead to
        // an error: P[] is invalid. But since index or slice expressions are
        // never constant and thus invalid array length expressions, if the
        // name is followed by "[" it must be the start of an array or slice
        // constraint. Only if we don't see a "[" do we need to parse a full
        // expression. Notably, name <- x is not a concern because name <- x
        // is a statement and not an expression.
        Expr* x = name();
        if (s_.tok != Token::Lbrack) {
          // To parse the expression starting with name, expand the call
          // sequence we would get by passing in name to expr, and pass in
          // name to pexpr.
          xnest_++;
          x = binaryExpr(pexpr(x), 0);
          xnest_--;
        }
        // Analyze expression x. If we can split x into a type parameter name,
        // possibly followed by a type parameter type, we consider this the
        // start of a type parameter list, with some caveats: a single name
        // followed by "]" tilts the decision towards an array declaration; a
        // type parameter type that could also be an ordinary expression but
        // which is followed by a comma tilts the decision towards a type
        // parameter list.
        auto [pname, ptype] = extractName(x, s_.tok == Token::Comma);
        if (pname != nullptr && (ptype != nullptr || s_.tok != Token::Rbrack)) {
          // d.name "[" pname ...
          // d.name "[" pname ptype ...
          // d.name "[" pname ptype "," ...
          d->tparams = paramList(pname, ptype, Token::Rbrack, true, false);  // ptype may be null
          d->alias = gotAssign();
          d->type = typeOrNull();
        } else {
          // d.name "[" pname "]" ...
          // d.name "[" x ...
          d->type = arrayType(pos, x);
        }
        break;
      }
      case Token::Rbrack:
        // d.name "[" "]" ...
        next();
        d->type = sliceType(pos);
        break;
      default:
        // d.name "[" ...
        d->type = arrayType(pos, nullptr);
        break;
    }
  } else {
    d->alias = gotAssign();
    d->type = typeOrNull();
  }

  if (d->type == nullptr) {
    d->type = badExpr();
    syntaxError("in type declaration");
    advance(Bits({Token::Semi, Token::Rparen}));
  }
  return finish(d);
}

// extractName splits the expression x into (name, expr) if syntactically x
// can be written as name expr. The split only happens if expr is a type
// element (per the isTypeElem predicate) or if force is set. If x is just a
// name, the result is (name, null). If the split succeeds, the result is
// (name, expr). Otherwise the result is (null, x).
//
//	x           force    name    expr
//	------------------------------------
//	P*[]int     T/F      P       *[]int
//	P*E         T        P       *E
//	P*E         F        null    P*E
//	P([]int)    T/F      P       ([]int)
//	P(E)        T        P       (E)
//	P(E)        F        null    P(E)
//	P*E|F|~G    T/F      P       *E|F|~G
//	P*E|F|G     T        P       *E|F|G
//	P*E|F|G     F        null    P*E|F|G
std::pair<Name*, Expr*> Parser::extractName(Expr* x, bool force) {
  switch (x->kind) {
    case NodeKind::Name:
      return {static_cast<Name*>(x), nullptr};
    case NodeKind::Operation: {
      auto* op = static_cast<Operation*>(x);
      if (op->y == nullptr) break;  // unary expr
      if (op->op == Op::Mul) {
        if (auto* name = As<Name>(op->x); name != nullptr && (force || isTypeElem(op->y))) {
          // x = name *x.y
          Operation* t = arena_->New<Operation>(*op);
          t->x = op->y;
          t->y = nullptr;  // change op into unary *op.y
          t->begin = op->pos;
          return {name, t};
        }
      } else if (op->op == Op::Or) {
        auto [name, lhs] = extractName(op->x, force || isTypeElem(op->y));
        if (name != nullptr && lhs != nullptr) {
          // x = name lhs|x.y
          Operation* t = arena_->New<Operation>(*op);
          t->x = lhs;
          t->begin = lhs->begin;
          return {name, t};
        }
      }
      break;
    }
    case NodeKind::CallExpr: {
      auto* call = static_cast<CallExpr*>(x);
      if (auto* name = As<Name>(call->fun)) {
        if (call->args.size() == 1 && !call->has_dots && (force || isTypeElem(call->args[0]))) {
          // x = name (x.args[0]); the parentheses are kept, as everywhere.
          ParenExpr* px = make<ParenExpr>(call->pos);
          px->x = call->args[0];
          px->end = call->end;
          return {name, px};
        }
      }
      break;
    }
    default:
      break;
  }
  return {nullptr, x};
}

// VarSpec = IdentifierList ( Type [ "=" ExpressionList ] | "=" ExpressionList ) .
Decl* Parser::varDecl(Group* group) {
  VarDecl* d = make<VarDecl>(s_.pos);
  d->group = group;

  d->names = nameList(name());
  if (gotAssign()) {
    d->values = exprList();
  } else {
    d->type = type_();
    if (gotAssign()) d->values = exprList();
  }
  return finish(d);
}

// FunctionDecl = "func" FunctionName [ TypeParams ] ( Function | Signature ) .
// FunctionName = identifier .
// Function     = Signature FunctionBody .
// MethodDecl   = "func" Receiver MethodName ( Function | Signature ) .
// Receiver     = Parameters .
// "func" has been consumed; kw is its position.
FuncDecl* Parser::funcDeclOrNull(Pos kw) {
  FuncDecl* f = make<FuncDecl>(kw);

  std::string_view context;
  if (s_.tok == Token::Lparen) {
    next();
    context = "method";
    List<Field> rcvr = paramList(nullptr, nullptr, Token::Rparen, false, false);
    switch (rcvr.size()) {
      case 0:
        error("method has no receiver");
        break;
      default:
        error("method has multiple receivers");
        [[fallthrough]];
      case 1:
        f->recv = rcvr[0];
        break;
    }
  }

  if (s_.tok == Token::Name) {
    f->name = name();
    f->type = funcType(context, s_.pos, &f->tparams);
  } else {
    f->name = fakeName();
    f->type = zero<FuncType>(s_.pos);
    syntaxError(context.empty() ? "expected name or (" : "expected name");
    advance(Bits({Token::Lbrace, Token::Semi}));
  }

  if (s_.tok == Token::Lbrace) f->body = funcBody();
  return finish(f);
}

BlockStmt* Parser::funcBody() {
  fnest_++;
  int errcnt = error_count_ - branch_errors_;
  BlockStmt* body = blockStmt("");
  fnest_--;

  // Don't check branches if there were syntax errors in the function as it
  // may lead to spurious errors or possibly crashes due to incomplete trees.
  // (Branch errors of nested function literals don't count.)
  if ((mode_ & kCheckBranches) != 0 && errcnt == error_count_ - branch_errors_) {
    CheckBranches(src_, body, [this](Pos pos, std::string msg) {
      int before = error_count_;
      errorAt(pos, std::move(msg));
      branch_errors_ += error_count_ - before;
    });
  }
  return body;
}

// ----------------------------------------------------------------------------
// Expressions

// Expression = UnaryExpr | Expression binary_op Expression .
Expr* Parser::binaryExpr(Expr* x, int prec) {
  if (x == nullptr) x = unaryExpr();
  while ((s_.tok == Token::Operator || s_.tok == Token::Star) && s_.prec > prec) {
    Operation* t = make<Operation>(s_.pos, x->begin);
    t->op = s_.op;
    int tprec = s_.prec;
    next();
    t->x = x;
    t->y = binaryExpr(nullptr, tprec);
    t->end = t->y->end;
    x = t;
  }
  return x;
}

// UnaryExpr = PrimaryExpr | unary_op UnaryExpr .
Expr* Parser::unaryExpr() {
  Nest nest(this);

  switch (s_.tok) {
    case Token::Operator:
    case Token::Star:
      switch (s_.op) {
        case Op::Mul:
        case Op::Add:
        case Op::Sub:
        case Op::Not:
        case Op::Xor:
        case Op::Tilde:
        case Op::And: {
          Operation* x = make<Operation>(s_.pos);
          x->op = s_.op;
          next();
          x->x = unaryExpr();
          return finish(x);
        }
        default:
          break;
      }
      break;

    case Token::Arrow: {
      // receive op (<-x) or receive-only channel (<-chan E)
      Pos pos = s_.pos;
      next();

      // If the next token is Chan we still don't know if it is a channel
      // (<-chan int) or a receive op (<-chan int(ch)). We only know once we
      // have found the end of the unaryExpr.
      Expr* x = unaryExpr();

      // There are two cases:
      //
      //   <-chan...  => <-x is a channel type
      //   <-x        => <-x is a receive operation
      //
      // In the first case, <- must be re-associated with the channel type
      // parsed already:
      //
      //   <-(chan E)   =>  (<-chan E)
      //   <-(chan<-E)  =>  (<-chan (<-E))
      if (Is<ChanType>(x)) return reassociateChan(pos, x);

      // x is not a channel type => we have a receive op
      Operation* o = make<Operation>(pos);
      o->op = Op::Recv;
      o->x = x;
      return finish(o);
    }

    default:
      break;
  }

  return pexpr(nullptr);
}

// x, the operand of a "<-" at pos, is a channel type: re-associate the <-
// with it (see unaryExpr).
Expr* Parser::reassociateChan(Pos pos, Expr* x) {
  // x is a channel type => re-associate <-
  ChanDir dir = ChanDir::Send;
  Expr* t = x;
  Pos arrow = pos;  // the <- that now belongs to t
  while (dir == ChanDir::Send) {
    auto* c = As<ChanType>(t);
    if (c == nullptr) break;
    dir = c->dir;
    if (dir == ChanDir::Recv) {
      // t is type <-chan E but <-<-chan E is not permitted
      // (report same error as for "type _ <-<-chan E")
      syntaxError("unexpected <-, expected chan");
      // already progressed, no need to advance
    }
    // The arrow of a send-only channel c moves to its element: find it
    // (it follows "chan", before the element's text).
    Pos next_arrow = kNoPos;
    if (dir == ChanDir::Send && c->elem != nullptr) {
      std::string_view all = src_.content();
      uint32_t i = src_.OffsetOf(c->elem->begin);
      uint32_t lo = src_.OffsetOf(c->begin);
      while (i > lo && (all[i - 1] == ' ' || all[i - 1] == '\t' || all[i - 1] == '\n' ||
                        all[i - 1] == '\r')) {
        i--;
      }
      if (i >= lo + 2 && all[i - 2] == '<' && all[i - 1] == '-') {
        next_arrow = src_.PosAt(i - 2);
      }
    }
    c->dir = ChanDir::Recv;
    if (arrow != kNoPos) {
      c->pos = arrow;
      c->begin = arrow;
    }
    arrow = next_arrow;
    t = c->elem;
  }
  if (dir == ChanDir::Send) {
    // channel dir is <- but channel element E is not a channel
    // (report same error as for "type _ <-chan<-E")
    syntaxErrorf("unexpected {}, expected chan", exprString(t));
    // already progressed, no need to advance
  }
  return x;
}

// callStmt parses call-like statements that can be preceded by 'defer' and 'go'.
CallStmt* Parser::callStmt() {
  CallStmt* s = make<CallStmt>(s_.pos);
  s->tok = s_.tok;  // Defer or Go
  next();

  Expr* x = pexpr(nullptr);
  if (Expr* t = Unparen(x); t != x) {
    errorAtf(x->pos, "expression in {} must not be parenthesized", TokenString(s->tok));
    // already progressed, no need to advance
    x = t;
  }
  s->call = x;
  return finish(s);
}

// Operand     = Literal | OperandName | MethodExpr | "(" Expression ")" .
// Literal     = BasicLit | CompositeLit | FunctionLit .
// BasicLit    = int_lit | float_lit | imaginary_lit | rune_lit | string_lit .
// OperandName = identifier | QualifiedIdent.
Expr* Parser::operand() {
  switch (s_.tok) {
    case Token::Name:
      return name();

    case Token::Literal:
      return oliteral();

    case Token::Lparen: {
      ParenExpr* px = make<ParenExpr>(s_.pos);
      next();
      xnest_++;
      px->x = expr();
      xnest_--;
      want(Token::Rparen);
      return finish(px);
    }

    case Token::Func: {
      Pos pos = s_.pos;
      next();
      FuncType* ftyp = funcType("function type", pos, nullptr);
      if (s_.tok == Token::Lbrace) {
        xnest_++;
        FuncLit* f = make<FuncLit>(pos);
        f->type = ftyp;
        f->body = funcBody();
        xnest_--;
        return finish(f);
      }
      return ftyp;
    }

    case Token::Lbrack:
    case Token::Chan:
    case Token::Map:
    case Token::Struct:
    case Token::Interface:
      return type_();  // othertype

    default: {
      Expr* x = badExpr();
      syntaxError("expected expression");
      advance(Bits({Token::Rparen, Token::Rbrack, Token::Rbrace}));
      return x;
    }
  }

  // Syntactically, composite literals are operands. Because a complit type
  // may be a qualified identifier which is handled by pexpr (together with
  // selector expressions), complits are parsed there as well (operand is only
  // called from pexpr).
}

// pexpr parses a PrimaryExpr.
//
//	PrimaryExpr =
//		Operand |
//		Conversion |
//		PrimaryExpr Selector |
//		PrimaryExpr Index |
//		PrimaryExpr Slice |
//		PrimaryExpr TypeAssertion |
//		PrimaryExpr Arguments .
//
//	Selector       = "." identifier .
//	Index          = "[" Expression "]" .
//	Slice          = "[" ( [ Expression ] ":" [ Expression ] ) |
//	                     ( [ Expression ] ":" Expression ":" Expression )
//	                 "]" .
//	TypeAssertion  = "." "(" Type ")" .
//	Arguments      = "(" [ ( ExpressionList | Type [ "," ExpressionList ] ) [ "..." ] [ "," ] ] ")" .
Expr* Parser::pexpr(Expr* x) {
  if (x == nullptr) x = operand();

  for (;;) {
    Pos pos = s_.pos;
    switch (s_.tok) {
      case Token::Dot: {
        next();
        switch (s_.tok) {
          case Token::Name: {
            // pexpr '.' sym
            SelectorExpr* t = make<SelectorExpr>(pos, x->begin);
            t->x = x;
            t->sel = name();
            x = finish(t);
            break;
          }
          case Token::Lparen:
            next();
            if (got(Token::Type)) {
              TypeSwitchGuard* t = make<TypeSwitchGuard>(pos, x->begin);
              // t->lhs is filled in by simpleStmt
              t->x = x;
              x = t;
            } else {
              AssertExpr* t = make<AssertExpr>(pos, x->begin);
              t->x = x;
              t->type = type_();
              x = t;
            }
            want(Token::Rparen);
            finish(x);
            break;
          default:
            syntaxError("expected name or (");
            advance(Bits({Token::Semi, Token::Rparen}));
            break;
        }
        break;
      }

      case Token::Lbrack: {
        next();

        Expr* i = nullptr;
        if (s_.tok != Token::Colon) {
          bool comma = false;
          if (s_.tok == Token::Rbrack) {
            // invalid empty instance, slice or index expression; accept but complain
            syntaxError("expected operand");
            i = badExpr();
          } else {
            i = typeList(false, &comma);
          }
          if (comma || s_.tok == Token::Rbrack) {
            want(Token::Rbrack);
            // x[], x[i,] or x[i, j, ...]
            IndexExpr* t = make<IndexExpr>(pos, x->begin);
            t->x = x;
            t->index = i;
            x = finish(t);
            break;
          }
        }

        // x[i:...
        // For better error message, don't simply use want(Colon) here (go.dev/issue/47704).
        if (!got(Token::Colon)) {
          syntaxError("expected comma, : or ]");
          advance(Bits({Token::Comma, Token::Colon, Token::Rbrack}));
        }
        xnest_++;
        SliceExpr* t = make<SliceExpr>(pos, x->begin);
        t->x = x;
        t->index[0] = i;
        if (s_.tok != Token::Colon && s_.tok != Token::Rbrack) {
          // x[i:j...
          t->index[1] = expr();
        }
        if (s_.tok == Token::Colon) {
          t->full = true;
          // x[i:j:...]
          if (t->index[1] == nullptr) {
            error("middle index required in 3-index slice");
            t->index[1] = badExpr();
          }
          next();
          if (s_.tok != Token::Rbrack) {
            // x[i:j:k...
            t->index[2] = expr();
          } else {
            error("final index required in 3-index slice");
            t->index[2] = badExpr();
          }
        }
        xnest_--;
        want(Token::Rbrack);
        x = finish(t);
        break;
      }

      case Token::Lparen: {
        CallExpr* t = make<CallExpr>(pos, x->begin);
        next();
        t->fun = x;
        t->args = argList(&t->has_dots, &t->rparen);
        x = finish(t);
        break;
      }

      case Token::Lbrace: {
        // operand may have returned a parenthesized complit type; accept it
        // but complain if we have a complit
        Expr* t = Unparen(x);
        // determine if '{' belongs to a composite literal or a block statement
        bool complit_ok = false;
        switch (t->kind) {
          case NodeKind::Name:
          case NodeKind::SelectorExpr:
            // x is possibly a composite literal type
            complit_ok = xnest_ >= 0;
            break;
          case NodeKind::IndexExpr:
            // x is possibly a composite literal type
            complit_ok = xnest_ >= 0 && !isValue(t);
            break;
          case NodeKind::ArrayType:
          case NodeKind::SliceType:
          case NodeKind::StructType:
          case NodeKind::MapType:
            // x is a comptype
            complit_ok = true;
            break;
          default:
            break;
        }
        if (!complit_ok) return x;
        if (t != x) {
          syntaxError("cannot parenthesize type in composite literal");
          // already progressed, no need to advance
        }
        CompositeLit* n = complitexpr();
        n->type = x;
        n->begin = x->begin;
        x = n;
        break;
      }

      default:
        return x;
    }
  }
}

// Element = Expression | LiteralValue .
Expr* Parser::bare_complitexpr() {
  if (s_.tok == Token::Lbrace) {
    // '{' start_complit braced_keyval_list '}'
    return complitexpr();
  }
  return expr();
}

// LiteralValue = "{" [ ElementList [ "," ] ] "}" .
CompositeLit* Parser::complitexpr() {
  Nest nest(this);
  CompositeLit* x = make<CompositeLit>(s_.pos);

  xnest_++;
  want(Token::Lbrace);
  size_t m = mark();
  x->rbrace = list("composite literal", Token::Comma, Token::Rbrace, [&] {
    // value
    Expr* e = bare_complitexpr();
    if (s_.tok == Token::Colon) {
      // key ':' value
      KeyValueExpr* l = make<KeyValueExpr>(s_.pos, e->begin);
      next();
      l->key = e;
      l->value = bare_complitexpr();
      e = finish(l);
      x->nkeys++;
    }
    push(e);
    return false;
  });
  x->elems = take<Expr>(m);
  xnest_--;
  return finish(x);
}

// ----------------------------------------------------------------------------
// Types

Expr* Parser::type_() {
  Expr* typ = typeOrNull();
  if (typ == nullptr) {
    typ = badExpr();
    syntaxError("expected type");
    advance(Bits({Token::Comma, Token::Colon, Token::Semi, Token::Rparen, Token::Rbrack,
                  Token::Rbrace}));
  }
  return typ;
}

Operation* Parser::newIndirect(Pos pos, Expr* typ) {
  Operation* o = make<Operation>(pos);
  o->op = Op::Mul;
  o->x = typ;
  return finish(o);
}

// typeOrNull is like type_ but it returns null if there was no type instead
// of reporting an error.
//
//	Type     = TypeName | TypeLit | "(" Type ")" .
//	TypeName = identifier | QualifiedIdent .
//	TypeLit  = ArrayType | StructType | PointerType | FunctionType | InterfaceType |
//		      SliceType | MapType | Channel_Type .
Expr* Parser::typeOrNull() {
  Nest nest(this);
  Pos pos = s_.pos;
  switch (s_.tok) {
    case Token::Star:
      // ptrtype
      next();
      return newIndirect(pos, type_());

    case Token::Arrow: {
      // recvchantype
      next();
      want(Token::Chan);
      ChanType* t = make<ChanType>(pos);
      t->dir = ChanDir::Recv;
      t->elem = chanElem();
      return finish(t);
    }

    case Token::Func: {
      // fntype
      next();
      return funcType("function type", pos, nullptr);
    }

    case Token::Lbrack:
      // '[' oexpr ']' ntype
      // '[' DotDotDot ']' ntype
      next();
      if (got(Token::Rbrack)) return sliceType(pos);
      return arrayType(pos, nullptr);

    case Token::Chan: {
      // Chan non_recvchantype
      // Chan Comm ntype
      next();
      ChanType* t = make<ChanType>(pos);
      if (got(Token::Arrow)) t->dir = ChanDir::Send;
      t->elem = chanElem();
      return finish(t);
    }

    case Token::Map: {
      // Map '[' ntype ']' ntype
      next();
      want(Token::Lbrack);
      MapType* t = make<MapType>(pos);
      t->key = type_();
      want(Token::Rbrack);
      t->value = type_();
      return finish(t);
    }

    case Token::Struct:
      return structType();

    case Token::Interface:
      return interfaceType();

    case Token::Name:
      return qualifiedName(nullptr);

    case Token::Lparen: {
      next();
      ParenExpr* px = make<ParenExpr>(pos);
      px->x = type_();
      want(Token::Rparen);
      return finish(px);
    }

    default:
      return nullptr;
  }
}

Expr* Parser::typeInstance(Expr* typ) {
  IndexExpr* x = make<IndexExpr>(s_.pos, typ->begin);
  want(Token::Lbrack);
  x->x = typ;
  if (s_.tok == Token::Rbrack) {
    syntaxError("expected type argument list");
    x->index = badExpr();
  } else {
    bool comma;
    x->index = typeList(true, &comma);
  }
  want(Token::Rbrack);
  return finish(x);
}

// If context != "", type parameters are not permitted. begin is the start of
// the type's text (the "func" keyword of a function type). tparams is not
// null for a function or method declaration: it receives the type
// parameters, and the type's text then starts at the parameters' "(".
FuncType* Parser::funcType(std::string_view context, Pos begin, List<Field>* tparams) {
  FuncType* typ = make<FuncType>(begin);

  if (s_.tok == Token::Lbrack) {
    Pos lbrack = s_.pos;
    next();
    if (!context.empty()) {
      // accept but complain
      syntaxErrorAtf(lbrack, "{} must have no type parameters", context);
    }
    if (s_.tok == Token::Rbrack) {
      syntaxError("empty type parameter list");
      next();
    } else {
      List<Field> l = paramList(nullptr, nullptr, Token::Rbrack, true, false);
      if (tparams != nullptr) *tparams = l;
    }
  }

  // In a declaration (tparams != null), the type's text starts at "(".
  if (tparams != nullptr) typ->pos = typ->begin = s_.pos;
  want(Token::Lparen);
  typ->params = paramList(nullptr, nullptr, Token::Rparen, false, true);
  typ->results = funcResult();
  return finish(typ);
}

// "[" has already been consumed, and pos is its position.
// If len != null it is the already consumed array length.
Expr* Parser::arrayType(Pos pos, Expr* len) {
  if (len == nullptr && !got(Token::DotDotDot)) {
    xnest_++;
    len = expr();
    xnest_--;
  }
  if (s_.tok == Token::Comma) {
    // Trailing commas are accepted in type parameter lists but not in array
    // type declarations. Accept for better error handling but complain.
    syntaxError("unexpected comma; expected ]");
    next();
  }
  want(Token::Rbrack);
  ArrayType* t = make<ArrayType>(pos);
  t->len = len;
  t->elem = type_();
  return finish(t);
}

// "[" and "]" have already been consumed, and pos is the position of "[".
Expr* Parser::sliceType(Pos pos) {
  SliceType* t = make<SliceType>(pos);
  t->elem = type_();
  return finish(t);
}

Expr* Parser::chanElem() {
  Expr* typ = typeOrNull();
  if (typ == nullptr) {
    typ = badExpr();
    syntaxError("missing channel element type");
    // assume element type is simply absent - don't advance
  }
  return typ;
}

// StructType = "struct" "{" { FieldDecl ";" } "}" .
StructType* Parser::structType() {
  StructType* typ = make<StructType>(s_.pos);

  want(Token::Struct);
  want(Token::Lbrace);
  size_t m = mark();
  size_t tm = tags_.size();
  list("struct type", Token::Semi, Token::Rbrace, [&] {
    fieldDecl();
    return false;
  });
  typ->fields = take<Field>(m);
  bool any_tag = false;
  for (size_t i = tm; i < tags_.size(); i++) any_tag |= tags_[i] != nullptr;
  if (any_tag) {
    size_t n = tags_.size() - tm;
    auto** p = static_cast<BasicLit**>(arena_->Allocate(n * sizeof(BasicLit*), alignof(BasicLit*)));
    for (size_t i = 0; i < n; i++) p[i] = static_cast<BasicLit*>(tags_[tm + i]);
    typ->tags = {p, n};
  }
  tags_.resize(tm);
  return finish(typ);
}

// InterfaceType = "interface" "{" { ( MethodDecl | EmbeddedElem ) ";" } "}" .
InterfaceType* Parser::interfaceType() {
  InterfaceType* typ = make<InterfaceType>(s_.pos);

  want(Token::Interface);
  want(Token::Lbrace);
  size_t m = mark();
  list("interface type", Token::Semi, Token::Rbrace, [&] {
    Field* f = nullptr;
    if (s_.tok == Token::Name) f = methodDecl();
    if (f == nullptr || f->name == nullptr) f = embeddedElem(f);
    push(f);
    return false;
  });
  typ->methods = take<Field>(m);
  return finish(typ);
}

// Result = Parameters | Type .
List<Field> Parser::funcResult() {
  if (got(Token::Lparen)) {
    return paramList(nullptr, nullptr, Token::Rparen, false, false);
  }
  Pos pos = s_.pos;
  if (Expr* typ = typeOrNull()) {
    Field* f = make<Field>(pos, typ->begin);
    f->type = typ;
    f->end = typ->end;
    Field** p = static_cast<Field**>(arena_->Allocate(sizeof(Field*), alignof(Field*)));
    p[0] = f;
    return {p, 1};
  }
  return {};
}

// addField pushes a struct field and its tag (null for none) on the scratch
// stacks.
void Parser::addField(Pos pos, Pos begin, Name* name, Expr* typ, BasicLit* tag) {
  Field* f = make<Field>(pos, begin);
  f->name = name;
  f->type = typ;
  finish(f);
  push(f);
  tags_.push_back(tag);
}

// FieldDecl      = (IdentifierList Type | EmbeddedField) [ Tag ] .
// EmbeddedField  = [ "*" ] TypeName [ TypeArgs ] .
// Tag            = string_lit .
void Parser::fieldDecl() {
  Pos pos = s_.pos;
  switch (s_.tok) {
    case Token::Name: {
      Name* nm = name();
      if (s_.tok == Token::Dot || s_.tok == Token::Literal || s_.tok == Token::Semi ||
          s_.tok == Token::Rbrace) {
        // embedded type
        Expr* typ = qualifiedName(nm);
        BasicLit* tag = oliteral();
        addField(pos, pos, nullptr, typ, tag);
        break;
      }

      // name1, name2, ... Type [ tag ]
      List<Name> names = nameList(nm);
      Expr* typ;

      // Careful dance: We don't know if we have an embedded instantiated
      // type T[P1, P2, ...] or a field T of array/slice type [P]E or []E.
      if (names.size() == 1 && s_.tok == Token::Lbrack) {
        typ = arrayOrTArgs();
        if (auto* ix = As<IndexExpr>(typ)) {
          // embedded type T[P1, P2, ...]
          ix->x = nm;  // nm == names[0]
          ix->begin = nm->begin;
          BasicLit* tag = oliteral();
          addField(pos, pos, nullptr, typ, tag);
          break;
        }
      } else {
        // T P
        typ = type_();
      }

      BasicLit* tag = oliteral();
      // Fields declared together share typ and tag. The extent of each but
      // the last is just its name; the last one spans the type and tag.
      for (size_t i = 0; i < names.size(); i++) {
        Name* n = names[i];
        Field* f = make<Field>(n->pos, n->begin);
        f->name = n;
        f->type = typ;
        if (i + 1 < names.size()) {
          f->end = n->end;
        } else {
          finish(f);
        }
        push(f);
        tags_.push_back(tag);
      }
      break;
    }

    case Token::Star: {
      next();
      Expr* typ;
      if (s_.tok == Token::Lparen) {
        // *(T)
        syntaxError("cannot parenthesize embedded type");
        next();
        typ = qualifiedName(nullptr);
        got(Token::Rparen);  // no need to complain if missing
      } else {
        // *T
        typ = qualifiedName(nullptr);
      }
      BasicLit* tag = oliteral();
      Operation* ind = make<Operation>(pos);
      ind->op = Op::Mul;
      ind->x = typ;
      ind->end = typ->end;
      addField(pos, pos, nullptr, ind, tag);
      break;
    }

    case Token::Lparen: {
      syntaxError("cannot parenthesize embedded type");
      next();
      Expr* typ;
      if (s_.tok == Token::Star) {
        // (*T)
        Pos ppos = s_.pos;
        next();
        typ = newIndirect(ppos, qualifiedName(nullptr));
      } else {
        // (T)
        typ = qualifiedName(nullptr);
      }
      got(Token::Rparen);  // no need to complain if missing
      BasicLit* tag = oliteral();
      addField(pos, pos, nullptr, typ, tag);
      break;
    }

    default:
      syntaxError("expected field name or embedded type");
      advance(Bits({Token::Semi, Token::Rbrace}));
      break;
  }
}

Expr* Parser::arrayOrTArgs() {
  Pos pos = s_.pos;
  want(Token::Lbrack);
  if (got(Token::Rbrack)) return sliceType(pos);

  // x [n]E or x[n,], x[n1, n2], ...
  bool comma;
  Expr* n = typeList(false, &comma);
  want(Token::Rbrack);
  if (!comma) {
    if (Expr* elem = typeOrNull()) {
      // x [n]E
      ArrayType* t = make<ArrayType>(pos);
      t->len = n;
      t->elem = elem;
      return finish(t);
    }
  }

  // x[n,], x[n1, n2], ...
  IndexExpr* t = make<IndexExpr>(pos);
  // t->x will be filled in by caller
  t->index = n;
  return finish(t);
}

BasicLit* Parser::oliteral() {
  if (s_.tok == Token::Literal) {
    BasicLit* b = make<BasicLit>(s_.pos);
    b->end = s_.end;
    b->value = s_.lit;
    b->lit_kind = s_.kind;
    b->bad = s_.bad;
    next();
    return b;
  }
  return nullptr;
}

// MethodSpec        = MethodName Signature | InterfaceTypeName .
// MethodName        = identifier .
// InterfaceTypeName = TypeName .
Field* Parser::methodDecl() {
  Field* f = make<Field>(s_.pos);
  Name* nm = name();

  const std::string_view context = "interface method";

  switch (s_.tok) {
    case Token::Lparen:
      // method
      f->name = nm;
      f->type = funcType(context, s_.pos, nullptr);
      break;

    case Token::Lbrack: {
      // Careful dance: We don't know if we have a generic method m[T C](x T)
      // or an embedded instantiated type T[P1, P2] (we accept generic methods
      // for generality and robustness of parsing but complain with an error).
      Pos pos = s_.pos;
      next();

      // Empty type parameter or argument lists are not permitted.
      // Treat as if [] were absent.
      if (s_.tok == Token::Rbrack) {
        // name[]
        Pos rpos = s_.pos;
        next();
        if (s_.tok == Token::Lparen) {
          // name[](
          errorAt(rpos, "empty type parameter list");
          f->name = nm;
          f->type = funcType(context, s_.pos, nullptr);
        } else {
          errorAt(rpos, "empty type argument list");
          f->type = nm;
        }
        break;
      }

      // A type argument list looks like a parameter list with only types.
      // Parse a parameter list and decide afterwards.
      List<Field> l = paramList(nullptr, nullptr, Token::Rbrack, false, false);
      if (l.empty()) {
        // The type parameter list is not [] but we got nothing due to other
        // errors (reported by paramList). Treat as if [] were absent.
        if (s_.tok == Token::Lparen) {
          f->name = nm;
          f->type = funcType(context, s_.pos, nullptr);
        } else {
          f->type = nm;
        }
        break;
      }

      // l.size() > 0
      if (l[0]->name != nullptr) {
        // generic method
        f->name = nm;
        f->type = funcType(context, s_.pos, nullptr);
        errorAt(pos, "interface method must have no type parameters");
        break;
      }

      // embedded instantiated type
      IndexExpr* t = make<IndexExpr>(pos, nm->begin);
      t->x = nm;
      if (l.size() == 1) {
        t->index = l[0]->type;
      } else {
        // l.size() > 1
        size_t m = mark();
        for (Field* p : l) push(p->type);
        t->index = makeList(m);
      }
      f->type = finish(t);
      break;
    }

    default:
      // embedded type
      f->type = qualifiedName(nm);
      break;
  }
  return finish(f);
}

// EmbeddedElem = MethodSpec | EmbeddedTerm { "|" EmbeddedTerm } .
Field* Parser::embeddedElem(Field* f) {
  if (f == nullptr) {
    f = make<Field>(s_.pos);
    f->type = embeddedTerm();
  }

  while (gotOp(Op::Or)) {
    Operation* t = make<Operation>(s_.pos, f->type->begin);
    t->op = Op::Or;
    next();
    t->x = f->type;
    t->y = embeddedTerm();
    f->type = finish(t);
  }
  return finish(f);
}

// EmbeddedTerm = [ "~" ] Type .
Expr* Parser::embeddedTerm() {
  if (gotOp(Op::Tilde)) {
    Operation* t = make<Operation>(s_.pos);
    t->op = Op::Tilde;
    next();
    t->x = type_();
    return finish(t);
  }

  Expr* t = typeOrNull();
  if (t == nullptr) {
    t = badExpr();
    syntaxError("expected ~ term or type");
    advance(Bits({Token::Operator, Token::Semi, Token::Rparen, Token::Rbrack, Token::Rbrace}));
  }
  return t;
}

// ParameterDecl = [ IdentifierList ] [ "..." ] Type .
Field* Parser::paramDeclOrNull(Name* name, Token follow) {
  // type set notation is ok in type parameter lists
  bool typeSetsOk = follow == Token::Rbrack;

  Pos pos = s_.pos;
  if (name != nullptr) {
    pos = name->pos;
  } else if (typeSetsOk && gotOp(Op::Tilde)) {
    // "~" ...
    return embeddedElem(nullptr);
  }

  Field* f = make<Field>(pos);

  if (s_.tok == Token::Name || name != nullptr) {
    // name
    if (name == nullptr) name = this->name();

    if (s_.tok == Token::Lbrack) {
      // name "[" ...
      f->type = arrayOrTArgs();
      if (auto* typ = As<IndexExpr>(f->type)) {
        // name "[" ... "]"
        typ->x = name;
        typ->begin = name->begin;
      } else {
        // name "[" n "]" E
        f->name = name;
      }
      if (typeSetsOk && gotOp(Op::Or)) {
        // name "[" ... "]" "|" ...
        // name "[" n "]" E "|" ...
        f = embeddedElem(f);
      }
      return finish(f);
    }

    if (s_.tok == Token::Dot) {
      // name "." ...
      f->type = qualifiedName(name);
      if (typeSetsOk && gotOp(Op::Or)) {
        // name "." name "|" ...
        f = embeddedElem(f);
      }
      return finish(f);
    }

    if (typeSetsOk && gotOp(Op::Or)) {
      // name "|" ...
      f->type = name;
      return embeddedElem(f);
    }

    f->name = name;
  }

  if (s_.tok == Token::DotDotDot) {
    // [name] "..." ...
    DotsType* t = make<DotsType>(s_.pos);
    next();
    t->elem = typeOrNull();
    if (t->elem == nullptr) {
      f->type = badExpr();
      syntaxError("... is missing type");
    } else {
      f->type = finish(t);
    }
    return finish(f);
  }

  if (typeSetsOk && gotOp(Op::Tilde)) {
    // [name] "~" ...
    f->type = embeddedElem(nullptr)->type;
    return finish(f);
  }

  f->type = typeOrNull();
  if (typeSetsOk && gotOp(Op::Or) && f->type != nullptr) {
    // [name] type "|"
    f = embeddedElem(f);
  }
  if (f->name != nullptr || f->type != nullptr) return finish(f);

  syntaxError("expected " + tokstring(follow));
  advance(TokenBit(Token::Comma) | TokenBit(follow));
  return nullptr;
}

// Parameters    = "(" [ ParameterList [ "," ] ] ")" .
// ParameterList = ParameterDecl { "," ParameterDecl } .
// "(" or "[" has already been consumed.
// If name != null, it is the first name after "(" or "[".
// If typ != null, name must be != null, and (name, typ) is the first field in the list.
// In the result list, either all fields have a name, or no field has a name.
List<Field> Parser::paramList(Name* name, Expr* typ, Token close, bool requireNames,
                              bool dddok) {
  auto newField = [&](Name* n, Expr* t) {
    Field* par = make<Field>(n->pos, n->begin);
    par->name = n;
    par->type = t;
    par->end = t->end;
    return par;
  };

  // list won't invoke its function argument if we're at the end of the
  // parameter list. If we have a complete field, handle this case here.
  if (name != nullptr && typ != nullptr && s_.tok == close) {
    next();
    Field** p = static_cast<Field**>(arena_->Allocate(sizeof(Field*), alignof(Field*)));
    p[0] = newField(name, typ);
    return {p, 1};
  }

  size_t m = mark();
  int named = 0;  // number of parameters that have an explicit name and type
  int typed = 0;  // number of parameters that have an explicit type
  Pos end = list("parameter list", Token::Comma, close, [&] {
    Field* par;
    if (typ != nullptr) {
      par = newField(name, typ);
    } else {
      par = paramDeclOrNull(name, close);
    }
    name = nullptr;  // 1st name was consumed if present
    typ = nullptr;   // 1st type was consumed if present
    if (par != nullptr) {
      if (par->name != nullptr && par->type != nullptr) named++;
      if (par->type != nullptr) typed++;
      push(par);
    }
    return false;
  });

  size_t n = scratch_.size() - m;
  if (n == 0) return {};
  auto at = [&](size_t i) { return static_cast<Field*>(scratch_[m + i]); };

  // distribute parameter types (n > 0)
  if (named == 0 && !requireNames) {
    // all unnamed and we're not in a type parameter list => found names are named types
    for (size_t i = 0; i < n; i++) {
      Field* par = at(i);
      if (Name* t = par->name) {
        par->type = t;
        par->name = nullptr;
      }
    }
  } else if (static_cast<size_t>(named) != n) {
    // some named or we're in a type parameter list => all must be named
    Pos errPos = kNoPos;  // left-most error position (or unknown)
    Expr* t = nullptr;    // current type (from right to left)
    for (size_t i = n; i-- > 0;) {
      Field* par = at(i);
      if (par->type != nullptr) {
        t = par->type;
        if (par->name == nullptr) {
          errPos = t->begin;
          par->name = newName(errPos, errPos, "_");
        }
      } else if (t != nullptr) {
        par->type = t;
      } else {
        // par->type == null && t == null => we only have a par->name
        errPos = par->name->pos;
        // (a zero-width placeholder just after the name)
        BadExpr* b = make<BadExpr>(par->name->end);
        par->type = b;
      }
    }
    if (errPos != kNoPos) {
      // Not all parameters are named because named != n. If named == typed,
      // there must be parameters that have no types. They must be at the end
      // of the parameter list, otherwise types would have been filled in by
      // the right-to-left sweep above and there would be no error. If
      // requireNames is set, the parameter list is a type parameter list.
      std::string msg;
      if (named == typed) {
        errPos = end;  // position error at closing token ) or ]
        msg = requireNames ? "missing type constraint" : "missing parameter type";
      } else {
        if (requireNames) {
          msg = "missing type parameter name";
          // go.dev/issue/60812
          if (n == 1) msg += " or invalid array length";
        } else {
          msg = "missing parameter name";
        }
      }
      syntaxErrorAt(errPos, msg);
    }
  }

  // check use of ...
  bool first = true;  // only report first occurrence
  for (size_t i = 0; i < n; i++) {
    Field* f = at(i);
    if (auto* t = As<DotsType>(f->type); t != nullptr && (!dddok || i + 1 < n)) {
      if (first) {
        first = false;
        errorAt(t->pos, dddok ? "can only use ... with final parameter" : "invalid use of ...");
      }
      // use T instead of invalid ...T
      f->type = t->elem;
    }
  }

  return take<Field>(m);
}

// ----------------------------------------------------------------------------
// Statements

// SimpleStmt = EmptyStmt | ExpressionStmt | SendStmt | IncDecStmt | Assignment | ShortVarDecl .
SimpleStmt* Parser::simpleStmt(Expr* lhs, Token keyword) {
  if (keyword == Token::For && s_.tok == Token::Range) {
    // Range expr
    return newRangeClause(nullptr, false);
  }

  if (lhs == nullptr) lhs = exprList();

  if (!Is<ListExpr>(lhs) && s_.tok != Token::Assign && s_.tok != Token::Define) {
    // expr
    Pos pos = s_.pos;
    switch (s_.tok) {
      case Token::AssignOp: {
        // lhs op= rhs
        Op op = s_.op;
        next();
        return newAssignStmt(pos, op, lhs, expr());
      }
      case Token::IncOp: {
        // lhs++ or lhs--
        Op op = s_.op;
        next();
        return newAssignStmt(pos, op, lhs, nullptr);
      }
      case Token::Arrow: {
        // lhs <- rhs
        SendStmt* s = make<SendStmt>(pos, lhs->begin);
        next();
        s->chan = lhs;
        s->value = expr();
        return finish(s);
      }
      default: {
        // expr
        ExprStmt* s = make<ExprStmt>(lhs->pos, lhs->begin);
        s->x = lhs;
        s->end = lhs->end;
        return s;
      }
    }
  }

  // expr_list
  switch (s_.tok) {
    case Token::Assign:
    case Token::Define: {
      Pos pos = s_.pos;
      Op op = s_.tok == Token::Define ? Op::Def : Op::None;
      next();

      if (keyword == Token::For && s_.tok == Token::Range) {
        // expr_list op= Range expr
        return newRangeClause(lhs, op == Op::Def);
      }

      // expr_list op= expr_list
      Expr* rhs = exprList();

      if (auto* x = As<TypeSwitchGuard>(rhs); x != nullptr && keyword == Token::Switch &&
                                              op == Op::Def) {
        if (auto* l = As<Name>(lhs)) {
          // switch … lhs := rhs.(type)
          x->lhs = l;
          x->begin = l->begin;
          ExprStmt* s = make<ExprStmt>(x->pos, x->begin);
          s->x = x;
          s->end = x->end;
          return s;
        }
      }

      return newAssignStmt(pos, op, lhs, rhs);
    }

    default: {
      syntaxError("expected := or = or comma");
      advance(Bits({Token::Semi, Token::Rbrace}));
      // make the best of what we have
      if (auto* l = As<ListExpr>(lhs)) lhs = l->elems[0];
      ExprStmt* s = make<ExprStmt>(lhs->pos, lhs->begin);
      s->x = lhs;
      s->end = lhs->end;
      return s;
    }
  }
}

RangeClause* Parser::newRangeClause(Expr* lhs, bool def) {
  RangeClause* r = make<RangeClause>(s_.pos, lhs != nullptr ? lhs->begin : s_.pos);
  next();  // consume Range
  r->lhs = lhs;
  r->def = def;
  r->x = expr();
  return finish(r);
}

AssignStmt* Parser::newAssignStmt(Pos pos, Op op, Expr* lhs, Expr* rhs) {
  AssignStmt* a = make<AssignStmt>(pos, lhs->begin);
  a->op = op;
  a->lhs = lhs;
  a->rhs = rhs;
  return finish(a);
}

Stmt* Parser::labeledStmtOrNull(Name* label) {
  LabeledStmt* s = make<LabeledStmt>(s_.pos, label->begin);
  s->label = label;

  want(Token::Colon);

  if (s_.tok == Token::Rbrace) {
    // We expect a statement (incl. an empty statement), which must be
    // terminated by a semicolon. Because semicolons may be omitted before an
    // Rbrace, seeing an Rbrace implies an empty statement.
    s->stmt = zero<EmptyStmt>(s_.pos);
    finish(s);
    s->end = s->stmt->end;  // the (empty) statement is at the "}", as in go/ast
    return s;
  }

  s->stmt = stmtOrNull();
  if (s->stmt != nullptr) {
    finish(s);
    s->end = std::max(s->end, s->stmt->end);  // the statement may be an explicit ";"
    return s;
  }

  // report error at line of ':' token
  syntaxErrorAt(s->pos, "missing statement after label");
  // we are already at the end of the labeled statement - no need to advance
  return nullptr;  // avoids follow-on errors (see e.g., fixedbugs/bug274.go)
}

// context must be a non-empty string unless we know that s_.tok == Lbrace.
BlockStmt* Parser::blockStmt(std::string_view context) {
  BlockStmt* s = make<BlockStmt>(s_.pos);

  // people coming from C may forget that braces are mandatory in Go
  if (!got(Token::Lbrace)) {
    syntaxErrorf("expected {{ after {}", context);
    advance(Bits({Token::Name, Token::Rbrace}));
    s->rbrace = s_.pos;  // in case we found "}"
    if (got(Token::Rbrace)) return finish(s);
  }

  s->list = stmtList();
  s->rbrace = s_.pos;
  want(Token::Rbrace);
  return finish(s);
}

DeclStmt* Parser::declStmt(Decl* (Parser::*f)(Group*)) {
  DeclStmt* s = make<DeclStmt>(s_.pos);
  Pos kw = s_.pos;
  next();  // Const, Type, or Var
  size_t m = mark();
  appendGroup(kw, f);
  s->decls = take<Decl>(m);
  return finish(s);
}

Stmt* Parser::forStmt() {
  ForStmt* s = make<ForStmt>(s_.pos);
  header(Token::For, &s->init, &s->cond, &s->post);
  s->body = blockStmt("for clause");
  return finish(s);
}

void Parser::header(Token keyword, SimpleStmt** init, Expr** cond, SimpleStmt** post) {
  *init = nullptr;
  *cond = nullptr;
  if (post != nullptr) *post = nullptr;
  want(keyword);

  if (s_.tok == Token::Lbrace) {
    if (keyword == Token::If) {
      syntaxError("missing condition in if statement");
      *cond = badExpr();
    }
    return;
  }
  // s_.tok != Lbrace

  int outer = xnest_;
  xnest_ = -1;

  if (s_.tok != Token::Semi) {
    // accept potential varDecl but complain
    if (got(Token::Var)) {
      syntaxErrorf("var declaration not allowed in {} initializer", TokenString(keyword));
    }
    *init = simpleStmt(nullptr, keyword);
    // If we have a range clause, we are done (can only happen for keyword == For).
    if (Is<RangeClause>(*init)) {
      xnest_ = outer;
      return;
    }
  }

  SimpleStmt* condStmt = nullptr;
  Pos semiPos = kNoPos;
  std::string_view semiLit;  // valid if semiPos != kNoPos
  if (s_.tok != Token::Lbrace) {
    if (s_.tok == Token::Semi) {
      semiPos = s_.pos;
      semiLit = s_.lit;
      next();
    } else {
      // asking for a '{' rather than a ';' here leads to a better error message
      want(Token::Lbrace);
      if (s_.tok != Token::Lbrace) {
        advance(Bits({Token::Lbrace, Token::Rbrace}));  // for better synchronization
      }
    }
    if (keyword == Token::For) {
      if (s_.tok != Token::Semi) {
        if (s_.tok == Token::Lbrace) {
          syntaxError("expected for loop condition");
          goto done;
        }
        condStmt = simpleStmt(nullptr, Token::EOF_ /* range not permitted */);
      }
      want(Token::Semi);
      if (s_.tok != Token::Lbrace) {
        SimpleStmt* p = simpleStmt(nullptr, Token::EOF_ /* range not permitted */);
        if (post != nullptr) *post = p;
        if (auto* a = As<AssignStmt>(p); a != nullptr && a->op == Op::Def) {
          syntaxErrorAt(a->pos, "cannot declare in post statement of for loop");
        }
      }
    } else if (s_.tok != Token::Lbrace) {
      condStmt = simpleStmt(nullptr, keyword);
    }
  } else {
    condStmt = *init;
    *init = nullptr;
  }

done:
  // unpack condStmt
  if (condStmt == nullptr) {
    if (keyword == Token::If && semiPos != kNoPos) {
      if (semiLit != "semicolon") {
        syntaxErrorAtf(semiPos, "unexpected {}, expected {{ after if clause", semiLit);
      } else {
        syntaxErrorAt(semiPos, "missing condition in if statement");
      }
      *cond = zero<BadExpr>(semiPos);
    }
  } else if (auto* es = As<ExprStmt>(condStmt)) {
    *cond = es->x;
  } else {
    badCondition(condStmt);
  }

  xnest_ = outer;
}

// A common syntax error is to write '=' instead of '==', which turns an
// expression into an assignment. Provide a more explicit error message in
// that case to prevent further confusion.
void Parser::badCondition(SimpleStmt* condStmt) {
  std::string str;
  if (auto* as = As<AssignStmt>(condStmt); as != nullptr && as->op == Op::None &&
                                           as->rhs != nullptr) {
    // Emphasize complex Lhs and Rhs of assignment with parentheses to highlight '='.
    str = fmt::format("assignment {} = {}", emphasize(as->lhs), emphasize(as->rhs));
  } else {
    str = stmtString(condStmt);
  }
  syntaxErrorAtf(condStmt->pos, "cannot use {} as value", str);
}

// IfStmt = "if" [ SimpleStmt ";" ] Expression Block [ "else" ( IfStmt | Block ) ] .
// An else-if chain is parsed iteratively, but each link counts as a level
// of nesting (the tree is as deep as the chain is long).
IfStmt* Parser::ifStmt() {
  IfStmt* first = nullptr;
  IfStmt* prev = nullptr;
  int links = 0;
  for (;;) {
    IfStmt* s = make<IfStmt>(s_.pos);
    if (prev == nullptr) {
      first = s;
    } else {
      prev->else_ = s;
    }
    prev = s;
    header(Token::If, &s->init, &s->cond, nullptr);
    s->then = blockStmt("if clause");

    if (!got(Token::Else)) break;
    if (s_.tok == Token::If) {
      links++;
      uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
      if (++depth_ > kMaxDepth || stack_base_ - here > stack_budget_) [[unlikely]] tooDeep();
      continue;
    }
    if (s_.tok == Token::Lbrace) {
      s->else_ = blockStmt("");
    } else {
      syntaxError("else must be followed by if or statement block");
      advance(Bits({Token::Name, Token::Rbrace}));
    }
    break;
  }
  depth_ -= links;
  // Every link of the chain ends where the chain ends.
  for (IfStmt* t = first; t != nullptr; t = As<IfStmt>(t->else_)) finish(t);
  return first;
}

SwitchStmt* Parser::switchStmt() {
  SwitchStmt* s = make<SwitchStmt>(s_.pos);

  header(Token::Switch, &s->init, &s->tag, nullptr);

  if (!got(Token::Lbrace)) {
    syntaxError("missing { after switch clause");
    advance(Bits({Token::Case, Token::Default, Token::Rbrace}));
  }
  size_t m = mark();
  while (s_.tok != Token::EOF_ && s_.tok != Token::Rbrace) push(caseClause());
  s->body = take<CaseClause>(m);
  s->rbrace = s_.pos;
  want(Token::Rbrace);
  return finish(s);
}

SelectStmt* Parser::selectStmt() {
  SelectStmt* s = make<SelectStmt>(s_.pos);

  want(Token::Select);
  if (!got(Token::Lbrace)) {
    syntaxError("missing { after select clause");
    advance(Bits({Token::Case, Token::Default, Token::Rbrace}));
  }
  size_t m = mark();
  while (s_.tok != Token::EOF_ && s_.tok != Token::Rbrace) push(commClause());
  s->body = take<CommClause>(m);
  s->rbrace = s_.pos;
  want(Token::Rbrace);
  return finish(s);
}

CaseClause* Parser::caseClause() {
  CaseClause* c = make<CaseClause>(s_.pos);

  switch (s_.tok) {
    case Token::Case:
      next();
      c->cases = exprList();
      break;
    case Token::Default:
      next();
      break;
    default:
      syntaxError("expected case or default or }");
      advance(Bits({Token::Colon, Token::Case, Token::Default, Token::Rbrace}));
      break;
  }

  c->colon = s_.pos;
  want(Token::Colon);
  c->body = stmtList();
  return finish(c);
}

CommClause* Parser::commClause() {
  CommClause* c = make<CommClause>(s_.pos);

  switch (s_.tok) {
    case Token::Case:
      next();
      c->comm = simpleStmt(nullptr, Token::EOF_);
      // The syntax restricts the possible simple statements here to:
      //
      //     lhs <- x (send statement)
      //     <-x
      //     lhs = <-x
      //     lhs := <-x
      //
      // All these (and more) are recognized by simpleStmt and invalid syntax
      // trees are flagged later, during type checking.
      break;
    case Token::Default:
      next();
      break;
    default:
      syntaxError("expected case or default or }");
      advance(Bits({Token::Colon, Token::Case, Token::Default, Token::Rbrace}));
      break;
  }

  c->colon = s_.pos;
  want(Token::Colon);
  c->body = stmtList();
  return finish(c);
}

// stmtOrNull parses a statement if one is present, or else returns null.
//
//	Statement =
//		Declaration | LabeledStmt | SimpleStmt |
//		GoStmt | ReturnStmt | BreakStmt | ContinueStmt | GotoStmt |
//		FallthroughStmt | Block | IfStmt | SwitchStmt | SelectStmt | ForStmt |
//		DeferStmt .
Stmt* Parser::stmtOrNull() {
  Nest nest(this);

  // Most statements (assignments) start with an identifier; look for it
  // first before doing anything more expensive.
  if (s_.tok == Token::Name) {
    Expr* lhs = exprList();
    if (auto* label = As<Name>(lhs); label != nullptr && s_.tok == Token::Colon) {
      return labeledStmtOrNull(label);
    }
    return simpleStmt(lhs, Token::EOF_);
  }

  switch (s_.tok) {
    case Token::Var:
      return declStmt(&Parser::varDecl);
    case Token::Const:
      return declStmt(&Parser::constDecl);
    case Token::Type:
      return declStmt(&Parser::typeDecl);

    case Token::Lbrace:
      return blockStmt("");

    case Token::Operator:
    case Token::Star:
      switch (s_.op) {
        case Op::Add:
        case Op::Sub:
        case Op::Mul:
        case Op::And:
        case Op::Xor:
        case Op::Not:
          return simpleStmt(nullptr, Token::EOF_);  // unary operators
        default:
          break;
      }
      break;

    case Token::Literal:
    case Token::Func:
    case Token::Lparen:  // operands
    case Token::Lbrack:
    case Token::Struct:
    case Token::Map:
    case Token::Chan:
    case Token::Interface:  // composite types
    case Token::Arrow:      // receive operator
      return simpleStmt(nullptr, Token::EOF_);

    case Token::For:
      return forStmt();
    case Token::Switch:
      return switchStmt();
    case Token::Select:
      return selectStmt();
    case Token::If:
      return ifStmt();

    case Token::Fallthrough: {
      BranchStmt* s = make<BranchStmt>(s_.pos);
      next();
      s->tok = Token::Fallthrough;
      return finish(s);
    }

    case Token::Break:
    case Token::Continue: {
      BranchStmt* s = make<BranchStmt>(s_.pos);
      s->tok = s_.tok;
      next();
      if (s_.tok == Token::Name) s->label = name();
      return finish(s);
    }

    case Token::Go:
    case Token::Defer:
      return callStmt();

    case Token::Goto: {
      BranchStmt* s = make<BranchStmt>(s_.pos);
      s->tok = Token::Goto;
      next();
      s->label = name();
      return finish(s);
    }

    case Token::Return: {
      ReturnStmt* s = make<ReturnStmt>(s_.pos);
      next();
      if (s_.tok != Token::Semi && s_.tok != Token::Rbrace) s->results = exprList();
      return finish(s);
    }

    case Token::Semi: {
      // An explicit ";" is the empty statement's text; an automatic one
      // (newline, EOF) gives it no extent.
      if (s_.lit != "semicolon") return zero<EmptyStmt>(s_.pos);
      EmptyStmt* s = make<EmptyStmt>(s_.pos);
      s->end = s_.end;
      prev_end_ = s_.end;  // the ";" is consumed as this statement's text
      return s;
    }

    default:
      break;
  }

  return nullptr;
}

// StatementList = { Statement ";" } .
List<Stmt> Parser::stmtList() {
  size_t m = mark();
  while (s_.tok != Token::EOF_ && s_.tok != Token::Rbrace && s_.tok != Token::Case &&
         s_.tok != Token::Default) {
    Stmt* s = stmtOrNull();
    if (s == nullptr) break;
    push(s);
    // ";" is optional before "}"
    if (!got(Token::Semi) && s_.tok != Token::Rbrace) {
      syntaxError("at end of statement");
      advance(Bits({Token::Semi, Token::Rbrace, Token::Case, Token::Default}));
      got(Token::Semi);  // avoid spurious empty statement
    }
  }
  return take<Stmt>(m);
}

// argList parses a possibly empty, comma-separated list of arguments,
// optionally followed by a comma (if not empty), and closed by ")".
// The last argument may be followed by "...".
//
// argList = [ arg { "," arg } [ "..." ] [ "," ] ] ")" .
List<Expr> Parser::argList(bool* hasDots, Pos* rparen) {
  xnest_++;
  size_t m = mark();
  *rparen = list("argument list", Token::Comma, Token::Rparen, [&] {
    push(expr());
    *hasDots = got(Token::DotDotDot);
    return *hasDots;
  });
  xnest_--;
  return take<Expr>(m);
}

// ----------------------------------------------------------------------------
// Common productions

Name* Parser::name() {
  if (s_.tok == Token::Name) {
    Name* n = newName(s_.pos, s_.end, s_.lit);
    next();
    return n;
  }
  Name* n = fakeName();
  syntaxError("expected name");
  advance(0);
  return n;
}

// IdentifierList = identifier { "," identifier } .
// The first name must be provided.
List<Name> Parser::nameList(Name* first) {
  if (s_.tok != Token::Comma) {
    Name** p = static_cast<Name**>(arena_->Allocate(sizeof(Name*), alignof(Name*)));
    p[0] = first;
    return {p, 1};
  }
  size_t m = mark();
  push(first);
  while (got(Token::Comma)) push(name());
  return take<Name>(m);
}

// The first name may be provided, or null.
Expr* Parser::qualifiedName(Name* name) {
  Expr* x;
  if (name != nullptr) {
    x = name;
  } else if (s_.tok == Token::Name) {
    x = this->name();
  } else {
    x = fakeName();
    syntaxError("expected name");
    advance(Bits({Token::Dot, Token::Semi, Token::Rbrace}));
  }

  if (s_.tok == Token::Dot) {
    SelectorExpr* s = make<SelectorExpr>(s_.pos, x->begin);
    next();
    s->x = x;
    s->sel = this->name();
    x = finish(s);
  }

  if (s_.tok == Token::Lbrack) x = typeInstance(x);
  return x;
}

// makeList turns the expressions on the scratch stack above m into a
// ListExpr (at least two elements expected).
Expr* Parser::makeList(size_t m) {
  Expr* first = static_cast<Expr*>(scratch_[m]);
  Expr* last = static_cast<Expr*>(scratch_.back());
  ListExpr* l = make<ListExpr>(first->pos, first->begin);
  l->end = std::max(last->end, first->begin);
  l->elems = take<Expr>(m);
  return l;
}

// ExpressionList = Expression { "," Expression } .
Expr* Parser::exprList() {
  Expr* x = expr();
  if (s_.tok == Token::Comma) {
    size_t m = mark();
    push(x);
    while (got(Token::Comma)) push(expr());
    x = makeList(m);
  }
  return x;
}

// typeList parses a non-empty, comma-separated list of types, optionally
// followed by a comma. If strict is set to false, the first element may also
// be a (non-type) expression. If there is more than one argument, the result
// is a ListExpr. *comma tells whether there was a (separating or trailing)
// comma.
//
// typeList = arg { "," arg } [ "," ] .
Expr* Parser::typeList(bool strict, bool* comma) {
  *comma = false;
  xnest_++;
  Expr* x = strict ? type_() : expr();
  if (got(Token::Comma)) {
    *comma = true;
    if (Expr* t = typeOrNull()) {
      size_t m = mark();
      push(x);
      push(t);
      while (got(Token::Comma)) {
        if ((t = typeOrNull()) == nullptr) break;
        push(t);
      }
      x = makeList(m);
    }
  }
  xnest_--;
  return x;
}

}  // namespace

ParseResult Parse(const SourceFile& src, Arena* arena, const ErrorHandler& errh, unsigned mode) {
  Parser p(src, arena, errh, mode);
  return p.Run();
}

}  // namespace gordian::syntax
