// This file owns the model's plain operations (model.h): the expression
// constructors, Validate (every operand of every instruction in range, so
// the checker can index without checks) and Print (the listing of
// `gordian verify -dump-models`).
#include "gordian/verify/model.h"

#include <fmt/format.h>

#include <array>

namespace gordian::verify {

Expr Expr::Const(int64_t v) {
  Expr e;
  e.nodes.push_back(ExprNode{.op = ExprOp::kConst, .value = v});
  return e;
}

Expr Expr::Param(int32_t i) {
  Expr e;
  e.nodes.push_back(ExprNode{.op = ExprOp::kParam, .index = i});
  return e;
}

Expr Expr::Local(int32_t i) {
  Expr e;
  e.nodes.push_back(ExprNode{.op = ExprOp::kLocal, .index = i});
  return e;
}

namespace {

// The one table of instruction names (Print, error messages).
constexpr std::array<std::string_view, static_cast<size_t>(InstrKind::kEnd) + 1> kInstrNames = {
    "nop",        "jump",        "branch",       "choice",        "assign",
    "make-chan",  "make-mutex",  "make-rwmutex", "make-waitgroup", "make-once",
    "make-cond",  "make-context", "ctx-done",    "cancel",         "make-timer",
    "stop-timer", "send",        "recv",         "close",          "select",
    "lock",       "unlock",      "rlock",        "runlock",        "trylock",
    "wg-add",     "wg-wait",     "once-begin",   "once-end",       "cond-wait",
    "cond-signal", "cond-broadcast", "make-var", "load-var",      "store-var",
    "go",         "call",           "panic",
    "end",
};

bool IsUnary(ExprOp op) { return op == ExprOp::kNeg || op == ExprOp::kNot; }
bool IsLeaf(ExprOp op) {
  return op == ExprOp::kConst || op == ExprOp::kParam || op == ExprOp::kLocal;
}

std::string_view OpSymbol(ExprOp op) {
  switch (op) {
    case ExprOp::kAdd: return "+";
    case ExprOp::kSub: return "-";
    case ExprOp::kMul: return "*";
    case ExprOp::kDiv: return "/";
    case ExprOp::kMod: return "%";
    case ExprOp::kNeg: return "-";
    case ExprOp::kLt: return "<";
    case ExprOp::kLe: return "<=";
    case ExprOp::kGt: return ">";
    case ExprOp::kGe: return ">=";
    case ExprOp::kEq: return "==";
    case ExprOp::kNe: return "!=";
    case ExprOp::kAnd: return "&&";
    case ExprOp::kOr: return "||";
    case ExprOp::kNot: return "!";
    case ExprOp::kMin: return "min";
    case ExprOp::kMax: return "max";
    default: return "?";
  }
}

// Validation of one template; `where` prefixes every message.
class Validator {
 public:
  Validator(const Model& m, std::string* error) : m_(m), error_(error) {}

  bool Run() {
    if (m_.templates.empty()) return Fail("model " + m_.entry + ": no templates (templates[0] is the entry)");
    if (m_.templates[0].environment)
      return Fail("model " + m_.entry + ": template 0 (the entry) cannot be an environment process");
    for (size_t t = 0; t < m_.templates.size(); ++t) {
      t_ = static_cast<int32_t>(t);
      if (!Template(m_.templates[t])) return false;
    }
    return true;
  }

 private:
  bool Fail(const std::string& msg) {
    if (error_) *error_ = msg;
    return false;
  }
  std::string Where() const {
    const auto& t = m_.templates[t_];
    return fmt::format("model {}: template {} ({}) pc {}", m_.entry, t_, t.name, pc_);
  }
  bool Bad(const std::string& what) {
    const auto& ins = m_.templates[t_].code[pc_];
    return Fail(fmt::format("{} ({}): {}", Where(), InstrKindName(ins.kind), what));
  }

  bool Slot(int32_t s, std::string_view name) {
    if (s >= 0 && s < num_locals_) return true;
    return Bad(fmt::format("operand {} = {} is not a local slot (the template has {})", name, s, num_locals_));
  }
  bool SlotOrNone(int32_t s, std::string_view name) { return s == -1 || Slot(s, name); }
  bool Target(int32_t t, std::string_view name) {
    if (t >= 0 && t < code_size_) return true;
    return Bad(fmt::format("target {} = {} is not a pc of the template (its code has {} instructions)",
                           name, t, code_size_));
  }
  bool Flag(int32_t c, std::string_view name) {
    if (c >= -1 && c <= 1) return true;
    return Bad(fmt::format("operand {} = {} must be -1, 0 or 1", name, c));
  }
  bool ExprOk(const Expr& e, bool may_be_unknown) {
    if (e.Unknown()) return may_be_unknown || Bad("needs an expression (it is empty)");
    for (size_t i = 0; i < e.nodes.size(); ++i) {
      const ExprNode& n = e.nodes[i];
      const int32_t here = static_cast<int32_t>(i);
      if (n.op > ExprOp::kMax) return Bad(fmt::format("expression node {} has no valid op", i));
      if (n.op == ExprOp::kParam && (n.index < 0 || n.index >= static_cast<int32_t>(m_.params.size())))
        return Bad(fmt::format("expression node {} names parameter {} (the model has {})", i, n.index,
                               m_.params.size()));
      if (n.op == ExprOp::kLocal && (n.index < 0 || n.index >= num_locals_))
        return Bad(fmt::format("expression node {} reads local {} (the template has {})", i, n.index,
                               num_locals_));
      if (IsLeaf(n.op)) continue;
      if (n.lhs < 0 || n.lhs >= here)
        return Bad(fmt::format("expression node {}: operand {} is not an earlier node", i, n.lhs));
      if (!IsUnary(n.op) && (n.rhs < 0 || n.rhs >= here))
        return Bad(fmt::format("expression node {}: operand {} is not an earlier node", i, n.rhs));
    }
    return true;
  }

  bool Template(const verify::Template& t) {
    num_locals_ = t.num_locals;
    code_size_ = static_cast<int32_t>(t.code.size());
    pc_ = 0;
    if (t.num_locals < 0) return Fail(fmt::format("{}: negative num_locals", Where()));
    if (t.code.empty()) return Fail(fmt::format("{}: no code (end with an `end` instruction)", Where()));
    for (pc_ = 0; pc_ < code_size_; ++pc_) {
      if (!Instr(t.code[pc_])) return false;
    }
    pc_ = code_size_ - 1;
    switch (t.code.back().kind) {
      case InstrKind::kJump: case InstrKind::kBranch: case InstrKind::kChoice:
      case InstrKind::kSelect: case InstrKind::kPanic: case InstrKind::kEnd:
        return true;
      default:
        return Bad("the last instruction falls off the end of the code (end it with `end`)");
    }
  }

  bool Instr(const verify::Instr& in) {
    if (in.kind > InstrKind::kEnd) return Bad("unknown instruction kind");
    if (in.recover != -1 && !Target(in.recover, "recover")) return false;
    switch (in.kind) {
      case InstrKind::kNop: case InstrKind::kPanic: case InstrKind::kEnd:
        return true;
      case InstrKind::kJump:
        return Target(in.a, "a");
      case InstrKind::kBranch:
        return Target(in.a, "a") && Target(in.b, "b") && ExprOk(in.expr, true);
      case InstrKind::kChoice:
        if (in.targets.empty()) return Bad("a choice needs at least one target");
        for (int32_t t : in.targets)
          if (!Target(t, "targets[]")) return false;
        return true;
      case InstrKind::kAssign:
        return Slot(in.a, "a") && ExprOk(in.expr, true);
      case InstrKind::kMakeChan:
        return Slot(in.a, "a") && ExprOk(in.expr, true);
      case InstrKind::kMakeMutex: case InstrKind::kMakeRWMutex:
      case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce:
        return Slot(in.a, "a");
      case InstrKind::kMakeCond:
        return Slot(in.a, "a") && Slot(in.b, "b") && Flag(in.c, "c");
      case InstrKind::kMakeContext:
        return Slot(in.a, "a") && SlotOrNone(in.b, "b") && Flag(in.c, "c");
      case InstrKind::kCtxDone:
        return Slot(in.a, "a") && Slot(in.b, "b");
      case InstrKind::kCancel: case InstrKind::kStopTimer:
        return Slot(in.a, "a");
      case InstrKind::kMakeTimer:
        return Slot(in.a, "a") && SlotOrNone(in.b, "b") && Flag(in.c, "c");
      case InstrKind::kSend: case InstrKind::kClose:
        return Slot(in.a, "a");
      case InstrKind::kRecv:
        return Slot(in.a, "a") && SlotOrNone(in.b, "b");
      case InstrKind::kSelect:
        if (in.a != -1 && !Target(in.a, "a (default)")) return false;
        for (size_t i = 0; i < in.cases.size(); ++i) {
          const SelectCase& c = in.cases[i];
          const std::string n = fmt::format("cases[{}]", i);
          if (!Slot(c.chan, n + ".chan") || !Target(c.target, n + ".target")) return false;
          if (c.send && c.ok != -1) return Bad(n + ": a send case has no ok slot");
          if (!c.send && !SlotOrNone(c.ok, n + ".ok")) return false;
        }
        return true;
      case InstrKind::kLock: case InstrKind::kUnlock: case InstrKind::kRLock:
      case InstrKind::kRUnlock: case InstrKind::kWgWait: case InstrKind::kOnceEnd:
      case InstrKind::kCondWait: case InstrKind::kCondSignal: case InstrKind::kCondBroadcast:
        return Slot(in.a, "a");
      case InstrKind::kTryLock:
        return Slot(in.a, "a") && Slot(in.b, "b") && Flag(in.c, "c");
      case InstrKind::kWgAdd:
        return Slot(in.a, "a") && ExprOk(in.expr, true);
      case InstrKind::kOnceBegin:
        return Slot(in.a, "a") && Target(in.b, "b");
      case InstrKind::kMakeVar: case InstrKind::kStoreVar:
        return Slot(in.a, "a") && ExprOk(in.expr, true);
      case InstrKind::kLoadVar:
        return Slot(in.a, "a") && Slot(in.b, "b");
      case InstrKind::kGo: {
        if (in.b < 0 || in.b >= static_cast<int32_t>(m_.templates.size()))
          return Bad(fmt::format("template b = {} does not exist (the model has {})", in.b, m_.templates.size()));
        if (in.b == 0) return Bad("cannot start the entry template 0 as a goroutine");
        const int32_t callee_locals = m_.templates[in.b].num_locals;
        if (static_cast<int32_t>(in.args.size()) > callee_locals)
          return Bad(fmt::format("passes {} arguments to template {} which has {} locals", in.args.size(),
                                 in.b, callee_locals));
        for (int32_t s : in.args)
          if (!Slot(s, "args[]")) return false;
        return true;
      }
      case InstrKind::kCall:
        return Bad("calls must be inlined by the extractor; the checker does not run `call`");
    }
    return Bad("unknown instruction kind");
  }

  const Model& m_;
  std::string* error_;
  int32_t t_ = 0, pc_ = 0, num_locals_ = 0, code_size_ = 0;
};

std::string FormatPos(const Model& m, const ir::Pos& p) {
  if (p.line == 0) return "";
  std::string_view file = p.file < m.files.size() ? std::string_view(m.files[p.file]) : std::string_view("?");
  return p.col ? fmt::format("{}:{}:{}", file, p.line, p.col) : fmt::format("{}:{}", file, p.line);
}

std::string Slot(int32_t s) { return s < 0 ? "_" : fmt::format("l{}", s); }

}  // namespace

std::string_view InstrKindName(InstrKind k) {
  const size_t i = static_cast<size_t>(k);
  return i < kInstrNames.size() ? kInstrNames[i] : "?";
}

bool Validate(const Model& m, std::string* error) { return Validator(m, error).Run(); }

std::string FormatExpr(const Model& m, const Expr& e) {
  if (e.Unknown()) return "?";
  std::vector<std::string> text(e.nodes.size());
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const ExprNode& n = e.nodes[i];
    auto operand = [&](int32_t j) -> const std::string& {
      static const std::string bad = "<bad>";
      return j >= 0 && static_cast<size_t>(j) < i ? text[j] : bad;
    };
    switch (n.op) {
      case ExprOp::kConst: text[i] = fmt::format("{}", n.value); break;
      case ExprOp::kParam:
        text[i] = n.index >= 0 && static_cast<size_t>(n.index) < m.params.size()
                      ? fmt::format("${}", m.params[n.index].name)
                      : fmt::format("$p{}", n.index);
        break;
      case ExprOp::kLocal: text[i] = fmt::format("l{}", n.index); break;
      case ExprOp::kNeg: case ExprOp::kNot:
        text[i] = fmt::format("{}{}", OpSymbol(n.op), operand(n.lhs));
        break;
      case ExprOp::kMin: case ExprOp::kMax:
        text[i] = fmt::format("{}({}, {})", OpSymbol(n.op), operand(n.lhs), operand(n.rhs));
        break;
      default:
        text[i] = fmt::format("({} {} {})", operand(n.lhs), OpSymbol(n.op), operand(n.rhs));
    }
  }
  return text.back();
}

std::string Print(const Model& m) {
  std::string out = fmt::format("model {}", m.entry);
  if (!m.test.empty()) out += fmt::format(" (test {})", m.test);
  if (auto p = FormatPos(m, m.pos); !p.empty()) out += " at " + p;
  out += "\n";
  for (size_t i = 0; i < m.params.size(); ++i) {
    const Parameter& p = m.params[i];
    out += fmt::format("  param {} {} {}", i, p.name, p.mandatory ? "mandatory" : "optional");
    if (!p.values.empty()) out += fmt::format(" values {}", fmt::join(p.values, ","));
    if (!p.source.empty()) out += " from " + p.source;
    out += "\n";
  }
  for (size_t t = 0; t < m.templates.size(); ++t) {
    const Template& tp = m.templates[t];
    out += fmt::format("  template {} {} locals {}{}", t, tp.name, tp.num_locals,
                       tp.environment ? " environment" : "");
    if (auto p = FormatPos(m, tp.pos); !p.empty()) out += " at " + p;
    out += "\n";
    for (size_t pc = 0; pc < tp.code.size(); ++pc) {
      const Instr& in = tp.code[pc];
      std::string args;
      switch (in.kind) {
        case InstrKind::kNop: case InstrKind::kPanic: case InstrKind::kEnd: case InstrKind::kCall:
          break;
        case InstrKind::kJump: args = fmt::format("-> {}", in.a); break;
        case InstrKind::kBranch:
          args = fmt::format("if {} -> {} else -> {}", FormatExpr(m, in.expr), in.a, in.b);
          break;
        case InstrKind::kChoice: args = fmt::format("-> {}", fmt::join(in.targets, " | ")); break;
        case InstrKind::kAssign: args = fmt::format("{} = {}", Slot(in.a), FormatExpr(m, in.expr)); break;
        case InstrKind::kMakeChan:
          args = fmt::format("{} cap {}", Slot(in.a), FormatExpr(m, in.expr));
          break;
        case InstrKind::kMakeCond:
          args = fmt::format("{} locker {}{}", Slot(in.a), Slot(in.b), in.c == 1 ? " rlocker" : "");
          break;
        case InstrKind::kMakeContext:
          args = fmt::format("{} parent {}{}", Slot(in.a), Slot(in.b), in.c == 1 ? " timeout" : "");
          break;
        case InstrKind::kCtxDone: args = fmt::format("{} = done({})", Slot(in.a), Slot(in.b)); break;
        case InstrKind::kMakeTimer:
          args = fmt::format("{}{}", Slot(in.a), in.c == 1 ? " ticker" : "");
          if (in.b >= 0) args += fmt::format(" stop {}", Slot(in.b));
          break;
        case InstrKind::kRecv:
          args = Slot(in.a);
          if (in.b >= 0) args += fmt::format(" ok {}", Slot(in.b));
          break;
        case InstrKind::kSelect: {
          for (size_t i = 0; i < in.cases.size(); ++i) {
            const SelectCase& c = in.cases[i];
            if (i) args += "; ";
            args += fmt::format("case {} {}", c.send ? "send" : "recv", Slot(c.chan));
            if (!c.send && c.ok >= 0) args += fmt::format(" ok {}", Slot(c.ok));
            args += fmt::format(" -> {}", c.target);
          }
          args += in.a >= 0 ? fmt::format("; default -> {}", in.a) : std::string("; no default");
          break;
        }
        case InstrKind::kTryLock:
          args = fmt::format("{} ok {}{}", Slot(in.a), Slot(in.b), in.c == 1 ? " read" : "");
          break;
        case InstrKind::kWgAdd: args = fmt::format("{} += {}", Slot(in.a), FormatExpr(m, in.expr)); break;
        case InstrKind::kOnceBegin: args = fmt::format("{} done -> {}", Slot(in.a), in.b); break;
        case InstrKind::kMakeVar: args = fmt::format("{} = var {}", Slot(in.a), FormatExpr(m, in.expr)); break;
        case InstrKind::kLoadVar: args = fmt::format("{} = *{}", Slot(in.a), Slot(in.b)); break;
        case InstrKind::kStoreVar: args = fmt::format("*{} = {}", Slot(in.a), FormatExpr(m, in.expr)); break;
        case InstrKind::kGo: {
          std::vector<std::string> a;
          for (int32_t s : in.args) a.push_back(Slot(s));
          const std::string name = in.b >= 0 && static_cast<size_t>(in.b) < m.templates.size()
                                       ? m.templates[in.b].name
                                       : std::string("?");
          args = fmt::format("template {} {}({})", in.b, name, fmt::join(a, ", "));
          break;
        }
        default: args = Slot(in.a); break;
      }
      out += fmt::format("    {:3}: {}", pc, InstrKindName(in.kind));
      if (!args.empty()) out += " " + args;
      if (in.recover >= 0) out += fmt::format(" (recover -> {})", in.recover);
      if (!in.text.empty()) out += "   // " + in.text;
      if (auto p = FormatPos(m, in.pos); !p.empty()) out += "  @" + p;
      out += "\n";
    }
  }
  for (const std::string& n : m.notes) out += "  note: " + n + "\n";
  return out;
}

}  // namespace gordian::verify
