// This file implements SourceOperations and ResolveColumns (columns.h).
#include "gordian/report/columns.h"

#include <vector>

#include "gordian/report/paths.h"
#include "gordian/syntax/syntax.h"
#include "gordian/syntax/walk.h"

namespace gordian::report {

using namespace syntax;  // NOLINT: the AST's many node types

struct SourceOperations::ParsedFile {
  SourceSet sources;
  Arena arena;
  SourceFile* src = nullptr;
  File* file = nullptr;  // null when the file could not be read
};

SourceOperations::SourceOperations() = default;
SourceOperations::~SourceOperations() = default;

const SourceOperations::ParsedFile* SourceOperations::Parsed(const std::string& path) {
  auto it = files_.find(path);
  if (it != files_.end()) return it->second.get();
  auto pf = std::make_unique<ParsedFile>();
  std::string err;
  pf->src = pf->sources.ReadFile(path, &err);
  if (pf->src != nullptr) {
    ParseResult r = Parse(*pf->src, &pf->arena, ErrorHandler());
    pf->file = r.file;  // a file with syntax errors still yields a partial tree
  }
  return files_.emplace(path, std::move(pf)).first->second.get();
}

namespace {

std::string_view CalleeName(const CallExpr* call) {
  if (const auto* n = As<Name>(call->fun)) return n->value;
  if (const auto* s = As<SelectorExpr>(call->fun)) return s->sel->value;
  return {};
}

bool IsMethodCall(const CallExpr* call) { return Is<SelectorExpr>(call->fun); }

// Does node n (whose parent is `parent`) perform an operation of role?
bool Matches(const Node* n, const Node* parent, Role role) {
  switch (role) {
    case Role::Send:
      return Is<SendStmt>(n);
    case Role::Recv: {
      const auto* op = As<Operation>(n);
      return (op != nullptr && op->op == Op::Recv && op->y == nullptr) ||
             (Is<RangeClause>(n) && Is<ForStmt>(parent));
    }
    case Role::Select:
      return Is<SelectStmt>(n);
    case Role::Spawn: {
      const auto* cs = As<CallStmt>(n);
      return cs != nullptr && cs->tok == Token::Go;
    }
    default:
      break;
  }
  const auto* call = As<CallExpr>(n);
  if (call == nullptr) return false;
  std::string_view name = CalleeName(call);
  bool method = IsMethodCall(call);
  switch (role) {
    case Role::Close: return !method && name == "close";
    case Role::Make: return !method && name == "make";
    case Role::Panic: return !method && name == "panic";
    case Role::Lock:
      return method && (name == "Lock" || name == "RLock" || name == "TryLock" ||
                        name == "TryRLock");
    case Role::Unlock: return method && (name == "Unlock" || name == "RUnlock");
    case Role::Add: return method && name == "Add";
    case Role::Done: return method && (name == "Done" || name == "Add");
    case Role::Wait: return method && (name == "Wait" || name == "Do");
    default: return false;
  }
}

// A receive whose program expects the channel to be closed: a range loop,
// `v, ok := <-ch` (also in a select case), or `<-ch` as a statement.
bool ExpectsClosed(const Node* n, const Node* parent) {
  if (Is<RangeClause>(n)) return true;
  if (parent == nullptr) return false;
  if (Is<ExprStmt>(parent)) return true;
  if (const auto* as = As<AssignStmt>(parent)) {
    const auto* lhs = As<ListExpr>(as->lhs);
    return as->rhs == n && lhs != nullptr && lhs->elems.size() == 2;
  }
  return false;
}

}  // namespace

OperationFacts SourceOperations::Find(const std::string& path, uint32_t line, Role role) {
  OperationFacts facts;
  if (line == 0) return facts;
  const ParsedFile* pf = Parsed(path);
  if (pf->file == nullptr) return facts;
  const SourceFile& src = *pf->src;
  auto line_of = [&](Pos p) { return p == kNoPos ? 0 : src.PositionAt(src.OffsetOf(p)).line; };

  std::vector<const Node*> stack;
  const Node* found = nullptr;
  const Node* found_parent = nullptr;
  const Node* select_on_line = nullptr;  // fallback for select cases
  Inspect(
      static_cast<Node*>(pf->file),
      [&](Node* n) {
        if (found != nullptr) return false;
        // Skip subtrees that cannot contain the line.
        if (n->begin != kNoPos && n->end != kNoPos &&
            (line_of(n->begin) > line || line_of(n->end) < line)) {
          return false;
        }
        const Node* parent = stack.empty() ? nullptr : stack.back();
        if (Matches(n, parent, role)) {
          // A range loop is where its `for` is; anything else where it begins.
          Pos at = Is<RangeClause>(n) ? parent->begin : n->begin;
          if (line_of(at) == line || line_of(n->pos) == line) {
            found = n;
            found_parent = parent;
            return false;
          }
        }
        if (select_on_line == nullptr && Is<SelectStmt>(n) && line_of(n->begin) == line) {
          select_on_line = n;
        }
        stack.push_back(n);
        return true;
      },
      [&](Node*) { stack.pop_back(); });
  if (found == nullptr && (role == Role::Send || role == Role::Recv) &&
      select_on_line != nullptr) {
    found = select_on_line;
  }
  if (found == nullptr) return facts;
  Pos at = Is<RangeClause>(found) ? found_parent->begin : found->begin;
  facts.found = true;
  facts.column = src.PositionAt(src.OffsetOf(at)).column;
  facts.expects_closed = role == Role::Recv && ExpectsClosed(found, found_parent);
  return facts;
}

void ResolveColumns(std::vector<Finding>* findings) {
  SourceOperations ops;
  auto fill = [&](Location* l) -> OperationFacts {
    OperationFacts f = ops.Find(DiskPath(*l), l->line, l->role);
    if (l->column == 0 && f.found) l->column = f.column;
    return f;
  };
  std::vector<Finding> kept;
  for (Finding& f : *findings) {
    bool all_expect_closed = f.kind == FindingKind::RecvOnClosed && !f.locations.empty();
    for (Location& l : f.locations) {
      OperationFacts facts = fill(&l);
      if (l.role == Role::Recv && !facts.expects_closed) all_expect_closed = false;
    }
    for (Step& s : f.interleaving) fill(&s.loc);
    if (all_expect_closed) continue;
    kept.push_back(std::move(f));
  }
  *findings = std::move(kept);
}

}  // namespace gordian::report
