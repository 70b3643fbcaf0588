// This file implements CheckBranches, after Go's
// cmd/compile/internal/syntax/branches.go (same messages, same rules).
//
// Differences: forward gotos are kept per name with a sequence number, so
// that resolving them and "jumps over declaration" are not quadratic in the
// number of gotos; and the errors of one body are reported sorted by position.
#include "gordian/syntax/branches.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace gordian::syntax {
namespace {

struct Block {
  const Block* parent;        // immediately enclosing block, or null
  Pos start;                  // start of block
  const LabeledStmt* lstmt;   // labeled statement associated with this block, or null
};

struct Label {
  const Block* parent;       // block containing this label declaration
  const LabeledStmt* lstmt;  // statement declaring the label
  bool used;                 // whether the label is used or not
};

// Targets describes the target statements within which break or continue
// statements are valid.
struct Targets {
  const Stmt* breaks = nullptr;        // ForStmt, SwitchStmt, SelectStmt, or null
  const ForStmt* continues = nullptr;  // or null
  int caseIndex = 0;                   // case index of immediately enclosing switch statement, or < 0
};

// A forward goto waiting for its label, with the order in which it became
// pending in the current block.
struct Fwd {
  const BranchStmt* stmt;
  uint64_t seq;
};

// What blockBranches knows while it walks one block: the last variable
// declaration and the forward gotos pending in the block.
struct BlockState {
  Pos varPos = kNoPos;
  const Expr* varName = nullptr;
  uint64_t varSeq = 0;  // forward gotos with seq < varSeq jump over the declaration
  uint64_t seq = 0;
  std::unordered_map<std::string_view, std::vector<Fwd>> fwdGotos;

  void addFwd(const BranchStmt* g) { fwdGotos[g->label->value].push_back(Fwd{g, seq++}); }

  void recordVarDecl(Pos pos, const Expr* name) {
    varPos = pos;
    varName = name;
    // Any existing forward goto jumping over the variable declaration is
    // invalid. The goto may still jump out of the block and be ok, but we
    // don't know that yet.
    varSeq = seq;
  }
};

const LabeledStmt kInvalid;  // sentinel: the enclosing target is not valid

std::span<Stmt* const> trimTrailingEmptyStmts(std::span<Stmt* const> list) {
  for (size_t i = list.size(); i > 0; i--) {
    if (!Is<EmptyStmt>(list[i - 1])) return list.first(i);
  }
  return {};
}

class LabelScope {
 public:
  explicit LabelScope(const SourceFile& src) : src_(src) {}

  void Check(const BlockStmt* body, FunctionRef<void(Pos, std::string)> errf) {
    std::vector<const BranchStmt*> fwdGotos;
    blockBranches(nullptr, Targets{}, nullptr, body->pos, body->list, &fwdGotos);

    // If there are any forward gotos left, no matching label was found for
    // them. Either those labels were never defined, or they are inside blocks
    // and not reachable from the gotos.
    for (const BranchStmt* fwd : fwdGotos) {
      std::string_view name = fwd->label->value;
      if (auto it = labels_.find(name); it != labels_.end()) {
        it->second.used = true;  // avoid "defined and not used" error
        errf_(fwd->label->pos, fmt::format("goto {} jumps into block starting at {}", name,
                                           posString(it->second.parent->start)));
      } else {
        errf_(fwd->label->pos, fmt::format("label {} not defined", name));
      }
    }

    // spec: "It is illegal to define a label that is never used."
    for (auto& [name, l] : labels_) {
      if (!l.used) {
        errf_(l.lstmt->label->pos, fmt::format("label {} defined and not used", name));
      }
    }

    std::stable_sort(errs_.begin(), errs_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [pos, msg] : errs_) errf(pos, std::move(msg));
  }

 private:
  void errf_(Pos pos, std::string msg) { errs_.emplace_back(pos, std::move(msg)); }

  std::string posString(Pos p) const {
    if (!src_.Contains(p)) return "-";
    return src_.PositionAt(src_.OffsetOf(p)).String();
  }

  std::string_view text(const Node* n) const {
    if (!src_.Contains(n->begin) || !src_.Contains(n->end) || n->end < n->begin) return {};
    return src_.content().substr(src_.OffsetOf(n->begin), n->end - n->begin);
  }

  // declare declares the label introduced by s in block b and returns the
  // new label. If the label was already declared, declare reports an error
  // and the existing label is returned instead.
  Label* declare(const Block* b, const LabeledStmt* s) {
    std::string_view name = s->label->value;
    auto [it, inserted] = labels_.try_emplace(name, Label{b, s, false});
    if (!inserted) {
      errf_(s->label->pos, fmt::format("label {} already defined at {}", name,
                                       posString(it->second.lstmt->label->pos)));
    }
    return &it->second;
  }

  // gotoTarget returns the labeled statement matching the given name and
  // declared in block b or any of its enclosing blocks. The result is null if
  // the label is not defined, or doesn't match a valid labeled statement.
  const LabeledStmt* gotoTarget(const Block* b, std::string_view name) {
    if (auto it = labels_.find(name); it != labels_.end()) {
      Label& l = it->second;
      l.used = true;  // even if it's not a valid target
      for (; b != nullptr; b = b->parent) {
        if (l.parent == b) return l.lstmt;
      }
    }
    return nullptr;
  }

  // enclosingTarget returns the innermost enclosing labeled statement
  // matching the given name. The result is null if the label is not defined,
  // and &kInvalid if the label is defined but doesn't label a valid labeled
  // statement.
  const LabeledStmt* enclosingTarget(const Block* b, std::string_view name) {
    if (auto it = labels_.find(name); it != labels_.end()) {
      Label& l = it->second;
      l.used = true;  // even if it's not a valid target
      for (; b != nullptr; b = b->parent) {
        if (l.lstmt == b->lstmt) return l.lstmt;
      }
      return &kInvalid;
    }
    return nullptr;
  }

  // labelDecl declares the label of s, a labeled statement in block b, and
  // resolves the forward gotos to it that are pending in the block.
  void labelDecl(const Block* b, const LabeledStmt* s, BlockState* st) {
    std::string_view name = s->label->value;
    Label* l = declare(b, s);
    // resolve matching forward gotos
    if (auto it = st->fwdGotos.find(name); it != st->fwdGotos.end()) {
      for (const Fwd& fwd : it->second) {
        l->used = true;
        if (st->varPos != kNoPos && fwd.seq < st->varSeq) {
          errf_(fwd.stmt->label->pos,
                fmt::format("goto {} jumps over declaration of {} at {}", name,
                            text(st->varName), posString(st->varPos)));
        }
      }
      st->fwdGotos.erase(it);
    }
  }

  // branchStmt checks a break, continue, goto or fallthrough statement s in
  // block b; notLast tells whether statements follow s in its list. A goto
  // whose label is not declared yet becomes a forward goto of the block.
  void branchStmt(const Block* b, Targets ctxt, const BranchStmt* s, bool notLast,
                  BlockState* st) {
    // unlabeled branch statement
    if (s->label == nullptr) {
      unlabeledBranch(ctxt, s, notLast);
      return;
    }

    // labeled branch statement
    std::string_view name = s->label->value;
    switch (s->tok) {
      case Token::Break:
        // spec: "If there is a label, it must be that of an enclosing
        // "for", "switch", or "select" statement, and that is the one
        // whose execution terminates."
        if (const LabeledStmt* t = enclosingTarget(b, name)) {
          const Stmt* ts = t->stmt;
          if (!Is<SwitchStmt>(ts) && !Is<SelectStmt>(ts) && !Is<ForStmt>(ts)) {
            errf_(s->label->pos, fmt::format("invalid break label {}", name));
          }
        } else {
          errf_(s->label->pos, fmt::format("break label not defined: {}", name));
        }
        break;

      case Token::Continue:
        // spec: "If there is a label, it must be that of an enclosing
        // "for" statement, and that is the one whose execution advances."
        if (const LabeledStmt* t = enclosingTarget(b, name)) {
          if (!Is<ForStmt>(t->stmt)) {
            errf_(s->label->pos, fmt::format("invalid continue label {}", name));
          }
        } else {
          errf_(s->label->pos, fmt::format("continue label not defined: {}", name));
        }
        break;

      case Token::Goto:
        if (gotoTarget(b, name) == nullptr) {
          // label may be declared later - add goto to forward gotos
          st->addFwd(s);
        }
        break;

      default:
        break;
    }
  }

  // unlabeledBranch checks a branch statement without a label against the
  // enclosing statements ctxt.
  void unlabeledBranch(Targets ctxt, const BranchStmt* s, bool notLast) {
    switch (s->tok) {
      case Token::Break:
        if (ctxt.breaks == nullptr) {
          errf_(s->pos, "break is not in a loop, switch, or select");
        }
        break;
      case Token::Continue:
        if (ctxt.continues == nullptr) errf_(s->pos, "continue is not in a loop");
        break;
      case Token::Fallthrough: {
        std::string msg = "fallthrough statement out of place";
        if (auto* t = As<SwitchStmt>(ctxt.breaks)) {
          if (Is<TypeSwitchGuard>(t->tag)) {
            msg = "cannot fallthrough in type switch";
          } else if (ctxt.caseIndex < 0 || notLast) {
            // fallthrough nested in a block or not the last statement
            // use msg as is
          } else if (static_cast<size_t>(ctxt.caseIndex) + 1 == t->body.size()) {
            msg = "cannot fallthrough final case in switch";
          } else {
            break;  // fallthrough ok
          }
        }
        errf_(s->pos, std::move(msg));
        break;
      }
      default:
        // goto always has a label (the parser makes one on error)
        break;
    }
  }

  // blockBranches processes a block's body starting at start and appends the
  // unresolved (forward) gotos to *out. parent is the immediately enclosing
  // block (or null), ctxt provides information about the enclosing
  // statements, and lstmt is the labeled statement associated with this
  // block, or null.
  void blockBranches(const Block* parent, Targets ctxt, const LabeledStmt* lstmt, Pos start,
                     std::span<Stmt* const> body, std::vector<const BranchStmt*>* out) {
    blocks_.push_back(Block{parent, start, lstmt});
    const Block* b = &blocks_.back();

    BlockState st;

    auto innerBlock = [&](Targets inner, Pos istart, std::span<Stmt* const> ibody) {
      // Unresolved forward gotos from the inner block become forward gotos
      // for the current block.
      std::vector<const BranchStmt*> got;
      blockBranches(b, inner, lstmt, istart, ibody, &got);
      for (const BranchStmt* g : got) st.addFwd(g);
    };

    // A fallthrough statement counts as last statement in a statement list
    // even if there are trailing empty statements; remove them.
    std::span<Stmt* const> stmtList = trimTrailingEmptyStmts(body);
    for (size_t stmtIndex = 0; stmtIndex < stmtList.size(); stmtIndex++) {
      const Stmt* stmt = stmtList[stmtIndex];
      lstmt = nullptr;
      for (bool again = true; again;) {
        again = false;
        switch (stmt->kind) {
          case NodeKind::DeclStmt:
            for (const Decl* d : static_cast<const DeclStmt*>(stmt)->decls) {
              if (auto* v = As<VarDecl>(d)) {
                st.recordVarDecl(v->pos, v->names[0]);
                break;  // the first VarDecl will do
              }
            }
            break;

          case NodeKind::LabeledStmt: {
            auto* s = static_cast<const LabeledStmt*>(stmt);
            // declare non-blank label
            if (s->label->value != "_") {
              labelDecl(b, s, &st);
              lstmt = s;
            }
            // process labeled statement
            stmt = s->stmt;
            again = true;
            break;
          }

          case NodeKind::BranchStmt:
            branchStmt(b, ctxt, static_cast<const BranchStmt*>(stmt),
                       stmtIndex + 1 < stmtList.size(), &st);
            break;

          case NodeKind::AssignStmt: {
            auto* s = static_cast<const AssignStmt*>(stmt);
            if (s->op == Op::Def) st.recordVarDecl(s->pos, s->lhs);
            break;
          }

          case NodeKind::BlockStmt: {
            auto* s = static_cast<const BlockStmt*>(stmt);
            innerBlock(Targets{ctxt.breaks, ctxt.continues, -1}, s->pos, s->list);
            break;
          }

          case NodeKind::IfStmt: {
            auto* s = static_cast<const IfStmt*>(stmt);
            Targets inner{ctxt.breaks, ctxt.continues, -1};
            innerBlock(inner, s->then->pos, s->then->list);
            if (s->else_ != nullptr) {
              Stmt* one[1] = {s->else_};
              innerBlock(inner, s->else_->pos, one);
            }
            break;
          }

          case NodeKind::ForStmt: {
            auto* s = static_cast<const ForStmt*>(stmt);
            innerBlock(Targets{s, s, -1}, s->body->pos, s->body->list);
            break;
          }

          case NodeKind::SwitchStmt: {
            auto* s = static_cast<const SwitchStmt*>(stmt);
            Targets inner{s, ctxt.continues, -1};
            for (size_t i = 0; i < s->body.size(); i++) {
              inner.caseIndex = static_cast<int>(i);
              innerBlock(inner, s->body[i]->pos, s->body[i]->body);
            }
            break;
          }

          case NodeKind::SelectStmt: {
            auto* s = static_cast<const SelectStmt*>(stmt);
            Targets inner{s, ctxt.continues, -1};
            for (const CommClause* cc : s->body) innerBlock(inner, cc->pos, cc->body);
            break;
          }

          default:
            break;
        }
      }
    }

    // Hand the unresolved gotos to the enclosing block, in source order.
    size_t first = out->size();
    for (auto& [name, list] : st.fwdGotos) {
      for (const Fwd& f : list) out->push_back(f.stmt);
    }
    std::sort(out->begin() + static_cast<ptrdiff_t>(first), out->end(),
              [](const BranchStmt* x, const BranchStmt* y) { return x->pos < y->pos; });
  }

  const SourceFile& src_;
  std::unordered_map<std::string_view, Label> labels_;  // all labels of the body
  std::deque<Block> blocks_;  // stable addresses: labels refer to their blocks
  std::vector<std::pair<Pos, std::string>> errs_;
};

}  // namespace

void CheckBranches(const SourceFile& src, const BlockStmt* body,
                   FunctionRef<void(Pos, std::string)> errf) {
  if (body == nullptr) return;
  LabelScope ls(src);
  ls.Check(body, errf);
}

}  // namespace gordian::syntax
