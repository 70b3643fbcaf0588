// This file owns printing a Program as IR text.
#include "gordian/ir/writer.h"

#include <fmt/format.h>

#include "gordian/ir/line.h"

namespace gordian::ir {
namespace {

class Out {
 public:
  explicit Out(std::string* s) : s_(s) {}
  Out& Word(std::string_view w) {
    if (!s_->empty() && s_->back() != '\n') s_->push_back(' ');
    *s_ += Quote(w);
    return *this;
  }
  Out& Bare(std::string_view w) {
    if (!s_->empty() && s_->back() != '\n') s_->push_back(' ');
    *s_ += w;
    return *this;
  }
  Out& Kv(std::string_view k, std::string_view v) {
    if (v.empty()) return *this;
    *s_ += ' ';
    *s_ += k;
    *s_ += '=';
    *s_ += Quote(v);
    return *this;
  }
  Out& Fields(const ir::Fields& f) {
    for (const Field& x : f.list) Kv(KeyName(x.key), x.value);
    return *this;
  }
  void End() { s_->push_back('\n'); }

 private:
  std::string* s_;
};

std::string Ints(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); i++) {
    if (i > 0) s += ',';
    s += std::to_string(v[i]);
  }
  return s;
}

}  // namespace

std::string WriteProgram(const Program& p) {
  std::string s;
  Out o(&s);
  s += fmt::format("gordian-ir {}\n", p.version);
  if (!p.go_version.empty() || !p.callgraph.empty() || !p.root.empty()) {
    o.Bare("meta").Kv("go", p.go_version).Kv("callgraph", p.callgraph).Kv("root", p.root).End();
  }
  for (const Package& pk : p.packages) {
    o.Bare("package").Word(pk.path).Kv("name", pk.name).Kv("dir", pk.dir).Kv("tests", pk.tests ? "1" : "").End();
  }
  for (const Function& f : p.functions) {
    o.Bare("func").Word(f.id).Kv("name", f.name).Kv("pkg", f.pkg).Kv("kind", f.kind)
        .Kv("pos", p.PosString(f.pos)).Kv("parent", f.parent).Kv("exported", f.exported ? "1" : "")
        .Kv("results", std::to_string(f.results)).End();
    for (const Var& v : f.params) o.Bare("param").Word(v.ref).Kv("name", v.name).Kv("type", v.type).Kv("prim", PrimName(v.prim)).End();
    for (const Var& v : f.frees) o.Bare("free").Word(v.ref).Kv("name", v.name).Kv("type", v.type).Kv("prim", PrimName(v.prim)).End();
    for (const Block& b : f.blocks) {
      o.Bare("block").Word(std::to_string(b.index)).Kv("comment", b.comment).Kv("succs", Ints(b.succs))
          .Kv("preds", Ints(b.preds)).End();
      for (const Op& op : b.ops) {
        o.Bare("op").Bare(OpKindName(op.kind)).Kv("pos", p.PosString(op.pos)).Fields(op.fields).End();
        for (const SelectCase& c : op.cases) {
          o.Bare("case").Word(std::to_string(c.index)).Kv("dir", c.send ? "send" : "recv")
              .Fields(c.fields).Kv("pos", p.PosString(c.pos)).End();
        }
      }
    }
    for (const Loop& lp : f.loops) {
      o.Bare("loop").Kv("header", std::to_string(lp.header)).Kv("blocks", Ints(lp.blocks)).Fields(lp.fields)
          .Kv("pos", p.PosString(lp.pos)).End();
    }
  }
  for (const Extern& e : p.externs) o.Bare("extern").Word(e.id).Kv("name", e.name).Kv("pkg", e.pkg).End();
  s += "end\n";
  return s;
}

}  // namespace gordian::ir
