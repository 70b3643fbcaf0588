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
    case Role::Call:  // a reporting method of testing.T (TestCall records)
      return method && (name == "Log" || name == "Logf" || name == "Error" ||
                        name == "Errorf" || name == "Fatal" || name == "Fatalf" ||
                        name == "Skip" || name == "Skipf" || name == "Fail" ||
                        name == "FailNow" || name == "SkipNow");
    default: return false;
  }
}

bool IsBlank(const Expr* e) {
  const auto* n = As<Name>(e);
  return n != nullptr && n->value == "_";
}

// A receive whose program expects the channel to be closed, or cannot be
// misled by its zero value: a range loop, `v, ok := <-ch`, or a receive
// whose value is dropped (`<-ch` as a statement, `_ = <-ch`), also as the
// communication of a select case (`case <-done:`, `case v, ok := <-ch:`).
bool ExpectsClosed(const Node* n, const Node* parent) {
  if (Is<RangeClause>(n)) return true;
  if (parent == nullptr) return false;
  if (Is<ExprStmt>(parent)) return true;
  if (const auto* as = As<AssignStmt>(parent)) {
    if (as->rhs != n) return false;
    const auto* lhs = As<ListExpr>(as->lhs);
    return (lhs != nullptr && lhs->elems.size() == 2) || IsBlank(as->lhs);
  }
  return false;
}

// The receive of select case `index` and the statement holding it (the
// clause's communication), by the runtime's numbering of the cases
// (docs/trace-format.md "Select"): sends first in source order, then the
// receives in reverse source order; the default is not a case. Null when
// the index names a send or does not fit the select.
const Node* SelectCaseRecv(const SelectStmt* sel, int32_t index, const Node** parent) {
  std::vector<const CommClause*> sends, recvs;
  for (const CommClause* cc : sel->body) {
    if (cc->comm == nullptr) continue;  // default
    (Is<SendStmt>(cc->comm) ? sends : recvs).push_back(cc);
  }
  const int32_t n = static_cast<int32_t>(sends.size() + recvs.size());
  if (index < static_cast<int32_t>(sends.size()) || index >= n) return nullptr;
  const SimpleStmt* comm = recvs[n - 1 - index]->comm;
  const Expr* x = nullptr;
  if (const auto* es = As<ExprStmt>(comm)) x = es->x;
  if (const auto* as = As<AssignStmt>(comm)) x = as->rhs;
  const auto* op = As<Operation>(x);
  if (op == nullptr || op->op != Op::Recv || op->y != nullptr) return nullptr;
  *parent = comm;
  return op;
}

}  // namespace

OperationFacts SourceOperations::Find(const std::string& path, uint32_t line, Role role,
                                      int32_t select_case) {
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
        if (select_on_line == nullptr && Is<SelectStmt>(n) && line_of(n->begin) == line) {
          select_on_line = n;
        }
        if (Matches(n, parent, role)) {
          // A range loop is where its `for` is; anything else where it begins.
          Pos at = Is<RangeClause>(n) ? parent->begin : n->begin;
          if (line_of(at) == line || line_of(n->pos) == line) {
            found = n;
            found_parent = parent;
            return false;
          }
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
  if (role != Role::Recv) return facts;
  // A select case is recorded at its select's line (the column stays the
  // select's): its case index names the receive.
  if (select_case >= 0 && select_on_line != nullptr) {
    const Node* parent = nullptr;
    const Node* recv = SelectCaseRecv(As<SelectStmt>(select_on_line), select_case, &parent);
    facts.expects_closed = recv != nullptr && ExpectsClosed(recv, parent);
    return facts;
  }
  facts.expects_closed = ExpectsClosed(found, found_parent);
  return facts;
}

void ResolveColumns(std::vector<Finding>* findings) {
  SourceOperations ops;
  auto fill = [&](Location* l) -> OperationFacts {
    OperationFacts f = ops.Find(DiskPath(*l), l->line, l->role, l->select_case);
    if (l->column == 0 && f.found) l->column = f.column;
    return f;
  };
  std::vector<Finding> kept;
  for (Finding& f : *findings) {
    // The warning is about its primary receive (the one that gets, or could
    // get, the zero value); another receive it names (one that saw the
    // close) does not make it noise or not.
    bool expects_closed = false;
    for (size_t i = 0; i < f.locations.size(); i++) {
      OperationFacts facts = fill(&f.locations[i]);
      if (i == 0 && f.kind == FindingKind::RecvOnClosed && f.locations[0].role == Role::Recv) {
        expects_closed = facts.expects_closed;
      }
    }
    for (Step& s : f.interleaving) fill(&s.loc);
    for (Step& s : f.context) fill(&s.loc);
    if (expects_closed) continue;
    kept.push_back(std::move(f));
  }
  *findings = std::move(kept);
}

}  // namespace gordian::report
