// This file declares the parser's internals, shared by the files that
// implement it: the Parser class (token handling, error reporting, node and
// list construction, and the declarations of all productions), the Nest
// depth guard, and the list template that the productions of every file use.
// The productions themselves live in parser.cc (package files and the entry
// point), parser_decls.cc, parser_exprs.cc, parser_types.cc and
// parser_stmts.cc. Only the parser's files include this header.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "gordian/syntax/scanner.h"
#include "gordian/syntax/syntax.h"

namespace gordian::syntax::parser_internal {

// Nesting beyond this many levels (parentheses, blocks, unary operators,
// type constructors...) is reported as an error instead of recursing further.
constexpr int kMaxDepth = 10000;
// Independently of the depth, stop recursing once this much stack is in use,
// or three quarters of what the thread has left when Parse starts, whichever
// is less (protects builds with large frames, e.g. sanitizers, and threads
// with small stacks). A release build needs about 260 bytes per level of
// parentheses, so 10000 levels fit comfortably.
constexpr uintptr_t kMaxStackBytes = uintptr_t{6} << 20;

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
inline std::string tokstring(Token tok) {
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

  // Error message text (parser.cc): out of line, since only error paths
  // use them.
  std::string exprString(const Expr* x, int depth = 0) const;
  std::string emphasize(const Expr* x) const;
  std::string stmtString(const SimpleStmt* s) const;

  // --------------------------------------------------------------------------
  // Productions (parser_*.cc)
  //
  // Those declared inline have one caller, in the file that defines them:
  // declared inline, they can be folded into that caller as they were when
  // the parser was one file (every member then had internal linkage). Keep
  // them next to their caller.

  File* file();
  template <class F>
  Pos list(std::string_view context, Token sep, Token close, F f);
  [[gnu::noinline, gnu::cold]] void listError(std::string_view context, Token sep, Token close) {
    syntaxError(fmt::format("in {}; possibly missing {} or {}", context, tokstring(sep),
                            tokstring(close)));
    advance(Bits({Token::Rparen, Token::Rbrack, Token::Rbrace}));
  }
  // The parser of one spec of a declaration (appendGroup parses the group
  // around it), by the keyword that begins it: import, const, type or var.
  using SpecParser = Decl* (Parser::*)(Group*);
  static SpecParser specParser(Token keyword);
  void appendGroup(Pos keyword, SpecParser f);
  Decl* importDecl(Group* group);
  Decl* constDecl(Group* group);
  Decl* typeDecl(Group* group);
  Decl* varDecl(Group* group);
  inline FuncDecl* funcDeclOrNull(Pos kw);
  BlockStmt* funcBody();

  Expr* expr() { return binaryExpr(nullptr, 0); }
  Expr* binaryExpr(Expr* x, int prec);
  Expr* unaryExpr();
  [[gnu::noinline]] Expr* reassociateChan(Pos pos, Expr* x);
  CallStmt* callStmt();
  inline Expr* operand();
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
  inline List<Field> funcResult();
  inline void fieldDecl();
  void addField(Pos pos, Pos begin, Name* name, Expr* typ, BasicLit* tag);
  Expr* arrayOrTArgs();
  BasicLit* oliteral();
  Field* methodDecl();
  Field* embeddedElem(Field* f);
  Expr* embeddedTerm();
  inline Field* paramDeclOrNull(Name* name, Token follow);
  List<Field> paramList(Name* name, Expr* typ, Token close, bool requireNames, bool dddok);
  std::pair<Name*, Expr*> extractName(Expr* x, bool force);

  SimpleStmt* simpleStmt(Expr* lhs, Token keyword);
  RangeClause* newRangeClause(Expr* lhs, bool def);
  AssignStmt* newAssignStmt(Pos pos, Op op, Expr* lhs, Expr* rhs);
  Stmt* labeledStmtOrNull(Name* label);
  BlockStmt* blockStmt(std::string_view context);
  DeclStmt* declStmt();
  Stmt* forStmt();
  void header(Token keyword, SimpleStmt** init, Expr** cond, SimpleStmt** post);
  inline IfStmt* ifStmt();
  [[gnu::noinline, gnu::cold]] void badCondition(SimpleStmt* condStmt);
  SwitchStmt* switchStmt();
  SelectStmt* selectStmt();
  template <class Clause, class ReadClause>
  List<Clause> clauseBlock(ReadClause read_clause, std::string_view missing_lbrace, Pos* rbrace);
  CaseClause* caseClause();
  CommClause* commClause();
  template <class Clause, class ReadCase>
  Clause* clause(ReadCase read_case);
  Stmt* stmtOrNull();
  List<Stmt> stmtList();
  inline List<Expr> argList(bool* hasDots, Pos* rparen);

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

}  // namespace gordian::syntax::parser_internal
