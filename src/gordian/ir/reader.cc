// This file owns reading the IR text into a Program: record order, the
// schema of each record and op kind, value syntax, and resolution of block
// indexes and function ids.
#include "gordian/ir/reader.h"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "gordian/ir/expr.h"
#include "gordian/ir/line.h"

namespace gordian::ir {
namespace {

enum class Rec : uint8_t {
#define GORDIAN_IR_RECORD(Name, text, positional, required, optional) Name,
#include "gordian/ir/records.def"
#undef GORDIAN_IR_RECORD
};

// The fields a record or op may carry: which keys, and which of them are
// required.
struct Schema {
  std::vector<Key> keys;
  std::vector<bool> required;
  bool positional = true;
};

bool KeyByText(std::string_view text, Key* out) {
  // "name:Type" picks the key of that name whose value type is Type.
  std::string_view type;
  if (size_t c = text.find(':'); c != std::string_view::npos) {
    type = text.substr(c + 1);
    text = text.substr(0, c);
  }
#define GORDIAN_IR_KEY(Name, t, vt)                                  \
  if (text == t && (type.empty() || type == #vt)) {                  \
    *out = Key::Name;                                                \
    return true;                                                     \
  }
#include "gordian/ir/field_keys.def"
#undef GORDIAN_IR_KEY
  return false;
}

void AddKeys(std::string_view list, bool required, Schema* s) {
  size_t i = 0;
  while (i < list.size()) {
    size_t j = list.find(' ', i);
    if (j == std::string_view::npos) j = list.size();
    if (j > i) {
      Key k;
      if (KeyByText(list.substr(i, j - i), &k)) {
        s->keys.push_back(k);
        s->required.push_back(required);
      }
    }
    i = j + 1;
  }
}

Schema MakeSchema(bool positional, std::string_view required, std::string_view optional) {
  Schema s;
  s.positional = positional;
  AddKeys(required, true, &s);
  AddKeys(optional, false, &s);
  return s;
}

const std::vector<Schema>& OpSchemas() {
  static const std::vector<Schema> schemas = [] {
    std::vector<Schema> v;
#define GORDIAN_IR_OP(Name, text, category, required, optional) \
  v.push_back(MakeSchema(true, required, "pos " optional));
#include "gordian/ir/op_kinds.def"
#undef GORDIAN_IR_OP
    return v;
  }();
  return schemas;
}

struct RecInfo {
  std::string_view text;
  Schema schema;
};

const std::vector<RecInfo>& Records() {
  static const std::vector<RecInfo> recs = [] {
    std::vector<RecInfo> v;
#define GORDIAN_IR_RECORD(Name, text, positional, required, optional) \
  v.push_back({text, MakeSchema(positional, required, optional)});
#include "gordian/ir/records.def"
#undef GORDIAN_IR_RECORD
    return v;
  }();
  return recs;
}

bool ParseInt(std::string_view s, long* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool IsRef(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c == ' ' || c == '(' || c == ')' || c == ',' || c == '"') return false;
  }
  return true;
}

// A block index of the IR: from 0 to 10^8.
bool IsBlockIndex(std::string_view s) {
  long n;
  return ParseInt(s, &n) && n >= 0 && n <= 100000000;
}

// Splits a comma list ("" is the empty list).
std::vector<std::string_view> SplitCommas(std::string_view s) {
  std::vector<std::string_view> out;
  if (s.empty()) return out;
  size_t i = 0;
  for (;;) {
    size_t j = s.find(',', i);
    if (j == std::string_view::npos) {
      out.push_back(s.substr(i));
      return out;
    }
    out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
}

bool IsFuncId(std::string_view s) {
  long n;
  return s.size() >= 2 && s[0] == 'F' && ParseInt(s.substr(1), &n) && n > 0;
}

class Reader {
 public:
  Reader(std::string_view text, const std::string& name, Program* out)
      : text_(text), name_(name), p_(out) {}

  bool Run(std::string* err) {
    *p_ = Program{};
    bool ended = false;
    size_t at = 0;
    while (at < text_.size()) {
      size_t nl = text_.find('\n', at);
      if (nl == std::string_view::npos) {
        return Fail(err, lineno_ + 1,
                    "the last line has no newline: the IR was cut short (regenerate it)");
      }
      std::string_view line = text_.substr(at, nl - at);
      at = nl + 1;
      lineno_++;
      if (line.size() > kMaxLineBytes) {
        return Fail(err, lineno_, fmt::format("line longer than {} bytes", kMaxLineBytes));
      }
      if (ended) return Fail(err, lineno_, "text after the end line");
      if (lineno_ == 1) {
        if (!Version(line, err)) return false;
        continue;
      }
      if (!Line(line, &ended, err)) return false;
    }
    if (lineno_ == 0) return Fail(err, 0, "empty: no \"gordian-ir 2\" line");
    if (!ended) {
      return Fail(err, lineno_, "no end line: the IR was cut short (regenerate it)");
    }
    return Resolve(err);
  }

 private:
  bool Fail(std::string* err, int line, const std::string& msg) {
    *err = line > 0 ? fmt::format("{}:{}: {}", name_, line, msg) : fmt::format("{}: {}", name_, msg);
    return false;
  }

  bool Version(std::string_view line, std::string* err) {
    constexpr std::string_view kMagic = "gordian-ir ";
    if (!line.starts_with(kMagic)) {
      return Fail(err, 1, "not a gordian IR file: the first line must be \"gordian-ir 2\"");
    }
    long v;
    if (!ParseInt(line.substr(kMagic.size()), &v)) {
      return Fail(err, 1, fmt::format("bad version line \"{}\"", line.substr(0, 40)));
    }
    if (v < kOldestFormatVersion || v > kFormatVersion) {
      return Fail(err, 1, fmt::format("IR format version {}; this gordian reads versions {} to {} "
                                      "(regenerate the IR with this gordian's ir dump)",
                                      v, kOldestFormatVersion, kFormatVersion));
    }
    p_->version = static_cast<int>(v);
    return true;
  }

  // Checks words against schema into *fields (the positional word, if
  // any, into *pos_word).
  // what names the record in messages ("op send" for an op).
  bool Check(const Schema& s, bool positional, std::string_view kind, std::vector<LineWord>& words,
             size_t first, std::string* pos_word, Fields* fields, std::string* err) {
    std::string what = first > 0 ? fmt::format("op {}", kind) : std::string(kind);
    size_t i = first;
    if (positional) {
      if (i >= words.size() || !words[i].key.empty()) {
        return Fail(err, lineno_, fmt::format("{}: missing its name or number", what));
      }
      *pos_word = std::move(words[i].value);
      i++;
    }
    uint64_t seen = 0;
    for (; i < words.size(); i++) {
      LineWord& w = words[i];
      if (w.key.empty()) {
        return Fail(err, lineno_, fmt::format("{}: unexpected word \"{}\" (want key=value)", what,
                                              w.value.substr(0, 40)));
      }
      size_t k = 0;
      while (k < s.keys.size() && KeyName(s.keys[k]) != w.key) k++;
      if (k == s.keys.size()) {
        return Fail(err, lineno_, fmt::format("{}: unknown field {}=", what, w.key.substr(0, 40)));
      }
      if (seen & (uint64_t{1} << k)) {
        return Fail(err, lineno_, fmt::format("{}: field {}= given twice", what, w.key));
      }
      seen |= uint64_t{1} << k;
      std::string msg;
      if (!CheckValue(s.keys[k], w.value, &msg)) {
        return Fail(err, lineno_, fmt::format("{}: {}={}: {}", what, w.key, Quote(w.value).substr(0, 60), msg));
      }
      fields->list.push_back({s.keys[k], std::move(w.value)});
    }
    for (size_t k = 0; k < s.keys.size(); k++) {
      if (s.required[k] && !(seen & (uint64_t{1} << k))) {
        return Fail(err, lineno_, fmt::format("{}: missing field {}=", what, KeyName(s.keys[k])));
      }
    }
    return true;
  }

  bool CheckValue(Key k, const std::string& v, std::string* msg) {
    // ok; else false with *msg = why.
    auto check = [msg](bool ok, const char* why) {
      if (!ok) *msg = why;
      return ok;
    };
    // Whether every item of the comma list v passes ok.
    auto each = [&v](bool (*ok)(std::string_view)) {
      for (std::string_view r : SplitCommas(v)) {
        if (!ok(r)) return false;
      }
      return true;
    };
    long n;
    switch (TypeOf(k)) {
      case ValueType::Ref: return check(IsRef(v), "not a value reference");
      case ValueType::RefList: return check(each(IsRef), "not a comma-separated list of references");
      case ValueType::Expr: {
        Expr e;
        return ParseExpr(v, &e, msg);
      }
      case ValueType::ExprList:
        for (std::string_view r : SplitCommas(v)) {
          Expr e;
          if (!ParseExpr(r, &e, msg)) return false;
        }
        return true;
      case ValueType::Bool: return check(v == "0" || v == "1", "want 0 or 1");
      case ValueType::Int:
        return check(ParseInt(v, &n) && n >= 0 && n <= 1000000000, "want a non-negative integer");
      case ValueType::Block: return check(IsBlockIndex(v), "want a block index");
      case ValueType::BlockList: return check(each(IsBlockIndex), "want block indexes");
      case ValueType::Func: return check(IsFuncId(v), "want a function id F<n>");
      case ValueType::FuncList: return check(each(IsFuncId), "want function ids F<n>");
      case ValueType::Text: return true;
      case ValueType::Pos: {
        Pos p;
        return ParsePos(v, &p, msg);
      }
      case ValueType::Prim: {
        Prim pr;
        return check(ParsePrim(v, &pr), "unknown primitive kind");
      }
    }
    return true;
  }

  // "file:line:col"; the file may contain colons.
  bool ParsePos(const std::string& v, Pos* out, std::string* msg) {
    size_t c2 = v.rfind(':');
    size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : v.rfind(':', c2 - 1);
    long line, col;
    if (c1 == std::string::npos || c1 == 0 ||
        !ParseInt(std::string_view(v).substr(c1 + 1, c2 - c1 - 1), &line) ||
        !ParseInt(std::string_view(v).substr(c2 + 1), &col) || line <= 0 || col < 0 ||
        line > 100000000 || col > 100000000) {
      *msg = "want file:line:col";
      return false;
    }
    std::string file = v.substr(0, c1);
    auto it = file_ids_.find(file);
    if (it == file_ids_.end()) {
      it = file_ids_.emplace(file, static_cast<uint32_t>(p_->files.size())).first;
      p_->files.push_back(file);
    }
    *out = Pos{it->second, static_cast<int>(line), static_cast<int>(col)};
    return true;
  }

  Pos PosOf(const Fields& f) {
    Pos p;
    std::string msg;
    if (const std::string* v = f.Get(Key::kPos)) ParsePos(*v, &p, &msg);
    return p;
  }

  bool Line(std::string_view line, bool* ended, std::string* err) {
    std::string word, msg;
    std::vector<LineWord> words;
    if (!SplitLine(line, &word, &words, &msg)) return Fail(err, lineno_, msg);
    const auto& recs = Records();
    size_t r = 0;
    while (r < recs.size() && recs[r].text != word) r++;
    if (r == recs.size()) {
      return Fail(err, lineno_, fmt::format("unknown record \"{}\"", word.substr(0, 40)));
    }
    Rec rec = static_cast<Rec>(r);
    std::string name;
    Fields fields;
    if (rec == Rec::kOp) {
      if (words.empty() || !words[0].key.empty()) return Fail(err, lineno_, "op: missing its kind");
      OpKind kind;
      if (!ParseOpKind(words[0].value, &kind)) {
        return Fail(err, lineno_, fmt::format("unknown op kind \"{}\"", words[0].value.substr(0, 40)));
      }
      // The kind was the positional word; the op's own fields follow.
      const Schema& s = OpSchemas()[static_cast<size_t>(kind)];
      if (!Check(s, false, OpKindName(kind), words, 1, &name, &fields, err)) return false;
      return AddOp(kind, std::move(fields), err);
    }
    if (!Check(recs[r].schema, recs[r].schema.positional, word, words, 0, &name, &fields, err)) return false;
    return Add(rec, std::move(name), std::move(fields), ended, err);
  }

  Function* CurrentFunc(std::string_view what, std::string* err) {
    if (p_->functions.empty() || in_externs_) {
      Fail(err, lineno_, fmt::format("{} outside a function", what));
      return nullptr;
    }
    return &p_->functions.back();
  }

  bool AddOp(OpKind kind, Fields fields, std::string* err) {
    Function* f = CurrentFunc("op", err);
    if (f == nullptr) return false;
    if (f->blocks.empty() || !f->loops.empty()) {
      return Fail(err, lineno_, "op outside a block (ops follow their block record, before loops)");
    }
    if (open_cases_ > 0) return CasesMissing(err);
    Op op;
    op.kind = kind;
    op.pos = PosOf(fields);
    op.ir_line = lineno_;
    if (kind == OpKind::kSelect) {
      long n = 0;
      ParseInt(*fields.Get(Key::kCases), &n);
      open_cases_ = static_cast<int>(n);
    }
    std::erase_if(fields.list, [](const Field& x) { return x.key == Key::kPos; });
    op.fields = std::move(fields);
    f->blocks.back().ops.push_back(std::move(op));
    return true;
  }

  bool CasesMissing(std::string* err) {
    return Fail(err, lineno_, fmt::format("the select above announced {} more case record(s)", open_cases_));
  }

  bool Add(Rec rec, std::string name, Fields fields, bool* ended, std::string* err) {
    if (open_cases_ > 0 && rec != Rec::kCase) return CasesMissing(err);
    switch (rec) {
      case Rec::kMeta:
        if (lineno_ != 2) return Fail(err, lineno_, "meta must be the second line");
        p_->go_version = *fields.Get(Key::kGo);
        p_->callgraph = *fields.Get(Key::kCallgraph);
        p_->root = *fields.Get(Key::kRoot);
        return true;
      case Rec::kPackage: {
        if (!p_->functions.empty() || in_externs_) return Fail(err, lineno_, "package after a func");
        Package pk;
        pk.path = std::move(name);
        pk.name = *fields.Get(Key::kName);
        if (const std::string* d = fields.Get(Key::kDir)) pk.dir = *d;
        pk.tests = fields.Flag(Key::kTests);
        p_->packages.push_back(std::move(pk));
        return true;
      }
      case Rec::kFunc: {
        if (in_externs_) return Fail(err, lineno_, "func after an extern");
        if (!IsFuncId(name)) return Fail(err, lineno_, fmt::format("func: bad id \"{}\" (want F<n>)", name.substr(0, 40)));
        if (!p_->functions.empty() && !CloseFunc(err)) return false;
        Function f;
        f.id = std::move(name);
        f.name = *fields.Get(Key::kName);
        f.kind = *fields.Get(Key::kKind);
        if (const std::string* v = fields.Get(Key::kPkg)) f.pkg = *v;
        if (const std::string* v = fields.Get(Key::kParentFunc)) f.parent = *v;
        f.exported = fields.Flag(Key::kExported);
        f.pos = PosOf(fields);
        long n = 0;
        ParseInt(*fields.Get(Key::kResults), &n);
        f.results = static_cast<int>(n);
        if (!Declare(f.id, static_cast<long>(p_->functions.size()), err)) return false;
        p_->functions.push_back(std::move(f));
        return true;
      }
      case Rec::kParam:
      case Rec::kFree: {
        Function* f = CurrentFunc(rec == Rec::kParam ? "param" : "free", err);
        if (f == nullptr) return false;
        if (!f->blocks.empty()) return Fail(err, lineno_, "param and free records come before the blocks");
        std::vector<Var>& list = rec == Rec::kParam ? f->params : f->frees;
        std::string want = fmt::format("{}{}", rec == Rec::kParam ? 'p' : 'f', list.size());
        if (name != want) return Fail(err, lineno_, fmt::format("expected {}, got \"{}\"", want, name.substr(0, 40)));
        Var v;
        v.ref = std::move(name);
        if (const std::string* nm = fields.Get(Key::kName)) v.name = *nm;  // "" for a synthesised one
        v.type = *fields.Get(Key::kType);
        if (const std::string* pr = fields.Get(Key::kPrim)) ParsePrim(*pr, &v.prim);
        list.push_back(std::move(v));
        return true;
      }
      case Rec::kBlock: {
        Function* f = CurrentFunc("block", err);
        if (f == nullptr) return false;
        if (!f->loops.empty()) return Fail(err, lineno_, "block after a loop record");
        long idx;
        if (!ParseInt(name, &idx) || idx != static_cast<long>(f->blocks.size())) {
          return Fail(err, lineno_, fmt::format("expected block {}, got \"{}\"", f->blocks.size(), name.substr(0, 40)));
        }
        Block b;
        b.index = static_cast<int>(idx);
        if (const std::string* v = fields.Get(Key::kComment)) b.comment = *v;
        b.succs = Ints(fields.Get(Key::kSuccs));
        b.preds = Ints(fields.Get(Key::kPreds));
        f->blocks.push_back(std::move(b));
        return true;
      }
      case Rec::kCase: {
        Function* f = CurrentFunc("case", err);
        if (f == nullptr) return false;
        if (open_cases_ == 0 || f->blocks.empty() || f->blocks.back().ops.empty()) {
          return Fail(err, lineno_, "case record without a select before it");
        }
        Op& sel = f->blocks.back().ops.back();
        long idx;
        if (!ParseInt(name, &idx) || idx != static_cast<long>(sel.cases.size())) {
          return Fail(err, lineno_, fmt::format("expected case {}, got \"{}\"", sel.cases.size(), name.substr(0, 40)));
        }
        const std::string& dir = *fields.Get(Key::kDir);
        if (dir != "send" && dir != "recv") return Fail(err, lineno_, "case: dir= must be send or recv");
        SelectCase c;
        c.index = static_cast<int>(idx);
        c.send = dir == "send";
        if (c.send && fields.Get(Key::kVal) == nullptr) return Fail(err, lineno_, "case: a send case needs val=");
        c.pos = PosOf(fields);
        std::erase_if(fields.list, [](const Field& x) { return x.key == Key::kPos || x.key == Key::kDir; });
        c.fields = std::move(fields);
        sel.cases.push_back(std::move(c));
        open_cases_--;
        return true;
      }
      case Rec::kLoop: {
        Function* f = CurrentFunc("loop", err);
        if (f == nullptr) return false;
        Loop lp;
        long h = 0;
        ParseInt(*fields.Get(Key::kHeader), &h);
        lp.header = static_cast<int>(h);
        lp.blocks = Ints(fields.Get(Key::kBlocks));
        lp.pos = PosOf(fields);
        std::erase_if(fields.list, [](const Field& x) {
          return x.key == Key::kPos || x.key == Key::kHeader || x.key == Key::kBlocks;
        });
        lp.fields = std::move(fields);
        f->loops.push_back(std::move(lp));
        return true;
      }
      case Rec::kExtern: {
        if (!IsFuncId(name)) return Fail(err, lineno_, fmt::format("extern: bad id \"{}\" (want F<n>)", name.substr(0, 40)));
        if (!in_externs_ && !p_->functions.empty() && !CloseFunc(err)) return false;
        in_externs_ = true;
        Extern e;
        e.id = std::move(name);
        e.name = *fields.Get(Key::kName);
        if (const std::string* v = fields.Get(Key::kPkg)) e.pkg = *v;
        if (!Declare(e.id, -1 - static_cast<long>(p_->externs.size()), err)) return false;
        p_->externs.push_back(std::move(e));
        return true;
      }
      case Rec::kEnd:
        if (!in_externs_ && !p_->functions.empty() && !CloseFunc(err)) return false;
        *ended = true;
        return true;
      case Rec::kOp:
        break;
    }
    return true;
  }

  bool Declare(const std::string& id, long index, std::string* err) {
    if (!p_->ids.emplace(id, index).second) {
      return Fail(err, lineno_, fmt::format("function id {} defined twice", id));
    }
    return true;
  }

  static std::vector<int> Ints(const std::string* v) {
    std::vector<int> out;
    if (v == nullptr) return out;
    for (std::string_view s : SplitCommas(*v)) {
      long n = 0;
      ParseInt(s, &n);
      out.push_back(static_cast<int>(n));
    }
    return out;
  }

  // Checks the block indexes of the function just finished.
  bool CloseFunc(std::string* err) {
    const Function& f = p_->functions.back();
    auto bad = [&](int b) { return b < 0 || static_cast<size_t>(b) >= f.blocks.size(); };
    auto fail = [&](int line, std::string_view what, int b) {
      return Fail(err, line, fmt::format("{}: block {} does not exist in {} ({} blocks)", what, b,
                                         f.id, f.blocks.size()));
    };
    for (const Block& b : f.blocks) {
      for (int s : b.succs) {
        if (bad(s)) return fail(lineno_, fmt::format("block {} succs", b.index), s);
      }
      for (int s : b.preds) {
        if (bad(s)) return fail(lineno_, fmt::format("block {} preds", b.index), s);
      }
      for (const Op& op : b.ops) {
        long n;
        if (const std::string* d = op.fields.Get(Key::kDefault); d && ParseInt(*d, &n) && bad(static_cast<int>(n))) {
          return fail(op.ir_line, "select default", static_cast<int>(n));
        }
        for (const SelectCase& c : op.cases) {
          if (const std::string* t = c.fields.Get(Key::kTarget); t && ParseInt(*t, &n) && bad(static_cast<int>(n))) {
            return fail(op.ir_line, "select case target", static_cast<int>(n));
          }
        }
      }
    }
    for (const Loop& lp : f.loops) {
      if (bad(lp.header)) return fail(lineno_, "loop header", lp.header);
      for (int b : lp.blocks) {
        if (bad(b)) return fail(lineno_, "loop blocks", b);
      }
    }
    return true;
  }

  // Every function id used resolves to a func or an extern.
  bool Resolve(std::string* err) {
    auto check = [&](std::string_view id, int line, std::string_view what) {
      if (p_->ids.count(std::string(id))) return true;
      return Fail(err, line, fmt::format("{} names {}, which no func or extern record defines", what, id));
    };
    for (const Function& f : p_->functions) {
      if (!f.parent.empty() && !check(f.parent, 0, fmt::format("func {} parent", f.id))) return false;
      for (const Block& b : f.blocks) {
        for (const Op& op : b.ops) {
          for (const Field& fl : op.fields.list) {
            if (fl.key == Key::kCallee) {
              if (!check(fl.value, op.ir_line, "callee")) return false;
            } else if (fl.key == Key::kCallees) {
              for (std::string_view id : SplitCommas(fl.value)) {
                if (!check(id, op.ir_line, "callees")) return false;
              }
            } else if (TypeOf(fl.key) == ValueType::Ref && fl.value.starts_with("fn:")) {
              if (!check(std::string_view(fl.value).substr(3), op.ir_line, KeyName(fl.key))) return false;
            }
          }
        }
      }
    }
    return true;
  }

  std::string_view text_;
  const std::string& name_;
  Program* p_;
  int lineno_ = 0;
  int open_cases_ = 0;
  bool in_externs_ = false;
  std::unordered_map<std::string, uint32_t> file_ids_;
};

}  // namespace

bool ReadProgram(std::string_view text, const std::string& name, Program* out, std::string* err) {
  return Reader(text, name, out).Run(err);
}

bool ReadProgramFile(const std::string& path, Program* out, std::string* err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *err = fmt::format("cannot read {}", path);
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ReadProgram(ss.str(), path, out, err);
}

}  // namespace gordian::ir
