// This file implements the text form of a trace (text.h): FormatTextTrace
// writes it, ParseTextTrace reads it. The grammar is in
// docs/trace-format.md, "Text form"; in short, one line is
//
//   header KEY=N...                     file header fields
//   meta KEY VALUE                      a meta.txt entry
//   site ID FILE LINE FUNCTION [column=N] [lib]
//   string ID "TEXT"
//   goroutine GID parent=P index=I      a parent the records do not show
//   [LABEL:] GID KIND [obj=N] [val=N] [aux=N] [FLAG...] [open] [@SITE] [t=PRE[-POST]]
//   [LABEL:] GID go CHILD [@SITE]       GoSpawn in GID, GoStart in CHILD
//   end LABEL [val=N] [FLAG...] [t=POST]
//
// and `//` or `#` starts a comment.
#include "gordian/trace/text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <queue>
#include <set>

#include <fmt/format.h>

#include "gordian/trace/dump.h"
#include "gordian/trace/side_files.h"
#include "gordian/util/read_file.h"

namespace gordian::trace {
namespace {

// Bounds that keep a hostile text from allocating much: far above any test.
constexpr uint32_t kMaxTextGid = 1u << 20;
constexpr uint32_t kMaxTextTableId = 1u << 20;

// Flag words by bit. Two bits have a second name on some kinds
// (event.h): kExitChecked on ProgramExit, kZeroSize on receives.
constexpr const char* kFlagWords[8] = {"closed", "success", "failed", "has-default",
                                       "send",   "recv",    "chosen", "timer"};

const char* FlagWord(Kind k, int bit) {
  if (bit == 1 && k == Kind::ProgramExit) return "checked";
  if (bit == 3 && k != Kind::Select) return "zero-size";
  return kFlagWords[bit];
}

int FlagBit(std::string_view w) {
  if (w == "checked") return 1;
  if (w == "zero-size") return 3;
  for (int b = 0; b < 8; b++) {
    if (w == kFlagWords[b]) return b;
  }
  return -1;
}

bool ParseKindName(std::string_view s, Kind* out) {
  for (int k = 1; k < static_cast<int>(Kind::Count_); k++) {
    if (KindName(static_cast<Kind>(k)) == s) {
      *out = static_cast<Kind>(k);
      return true;
    }
  }
  return false;
}

// A token can be written bare when it has no blank, quote or comment start.
std::string Word(std::string_view s) {
  bool bare = !s.empty() && s.find_first_of(" \t\"#\\") == std::string_view::npos &&
              s.find("//") == std::string_view::npos &&
              std::all_of(s.begin(), s.end(), [](unsigned char c) { return c > 0x20 && c < 0x7f; });
  return bare ? std::string(s) : Quote(s);
}

// ---------------------------------------------------------------------------
// Writing

std::string RecordLine(const Trace& t, uint32_t gid, const Record& r) {
  std::string s = fmt::format("{} {}", gid, KindName(r.kind));
  bool wg = r.kind == Kind::WgAdd;
  if (r.obj != 0) s += fmt::format(" obj={}", r.obj);
  if (r.val != 0) {
    s += wg ? fmt::format(" val={}", static_cast<int32_t>(r.val)) : fmt::format(" val={}", r.val);
  }
  if (r.aux != 0) {
    s += wg ? fmt::format(" aux={}", static_cast<int16_t>(r.aux)) : fmt::format(" aux={}", r.aux);
  }
  for (int b = 0; b < 8; b++) {
    if (r.flags & (1u << b)) s += fmt::format(" {}", FlagWord(r.kind, b));
  }
  s += fmt::format(" @{}", r.site);
  s += r.tpre == r.tpost ? fmt::format(" t={}", r.tpre) : fmt::format(" t={}-{}", r.tpre, r.tpost);
  if (r.kind == Kind::Panic || r.kind == Kind::TestStart) {
    if (r.val < t.strings.size()) s += fmt::format("  // {}", Quote(t.strings[r.val]));
  }
  return s;
}

// The parents ParseTextTrace derives from the records alone (text.h): the
// goroutine's GoStart, else the first GoSpawn naming it.
void DeriveParents(const Trace& t, std::vector<Goroutine>* gs) {
  for (Goroutine& g : *gs) {
    g.parent = g.child_index = 0;
    if (g.begin < g.end && t.records[g.begin].kind == Kind::GoStart) {
      g.parent = t.records[g.begin].obj;
      g.child_index = t.records[g.begin].val;
    }
  }
  for (const Goroutine& p : t.goroutines) {
    for (uint32_t i = p.begin; i < p.end; i++) {
      const Record& r = t.records[i];
      if (r.kind != Kind::GoSpawn || r.obj <= 1 || r.obj > gs->size()) continue;
      Goroutine& c = (*gs)[r.obj - 1];
      if (c.parent == 0) {
        c.parent = p.gid;
        c.child_index = r.val;
      }
    }
  }
  if (!gs->empty()) (*gs)[0].parent = (*gs)[0].child_index = 0;
}

}  // namespace

std::string FormatTextTrace(const Trace& t) {
  std::string out = "// gordian text trace (docs/trace-format.md, \"Text form\")\n";
  const FileHeader& h = t.header;
  out += fmt::format("header version={} chunk_bytes={} flags={} start_unix_ns={} pid={}{}\n",
                     h.version, h.chunk_bytes, h.flags, h.start_unix_ns, h.pid,
                     t.truncated && !(h.flags & kFileTruncated) ? " truncated" : "");
  for (const auto& [k, v] : t.meta) out += fmt::format("meta {} {}\n", Word(k), Word(v));
  for (size_t i = 1; i < t.sites.size(); i++) {
    const Site& s = t.sites[i];
    out += fmt::format("site {} {} {} {}", i, Word(s.file), s.line, Word(s.function));
    if (s.column != 0) out += fmt::format(" column={}", s.column);
    out += s.user ? "\n" : " lib\n";
  }
  for (size_t i = 1; i < t.strings.size(); i++) {
    out += fmt::format("string {} {}\n", i, Quote(t.strings[i]));
  }
  std::vector<Goroutine> derived = t.goroutines;
  DeriveParents(t, &derived);
  for (size_t i = 0; i < t.goroutines.size(); i++) {
    const Goroutine& g = t.goroutines[i];
    if (g.parent != derived[i].parent || g.child_index != derived[i].child_index) {
      out += fmt::format("goroutine {} parent={} index={}\n", g.gid, g.parent, g.child_index);
    }
  }
  // A goroutine no record names still exists (ReadTrace sizes the table by
  // the highest gid): the last one is declared.
  if (!t.goroutines.empty()) {
    const Goroutine& last = t.goroutines.back();
    bool named = last.begin < last.end;
    for (const Record& r : t.records) named = named || (r.kind == Kind::GoSpawn && r.obj == last.gid);
    if (!named) out += fmt::format("goroutine {}\n", last.gid);
  }
  // Merge the goroutines by start stamp (a select case stays with its
  // select); each goroutine's records keep their program order.
  using Head = std::pair<uint64_t, uint32_t>;  // (stamp key, goroutine index)
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  std::vector<uint32_t> next(t.goroutines.size());
  auto key = [&](uint32_t gi, uint32_t i) { return (uint64_t{t.records[i].tpre} << 32) | gi; };
  for (uint32_t gi = 0; gi < t.goroutines.size(); gi++) {
    next[gi] = t.goroutines[gi].begin;
    if (next[gi] < t.goroutines[gi].end) heads.push({key(gi, next[gi]), gi});
  }
  while (!heads.empty()) {
    uint32_t gi = heads.top().second;
    heads.pop();
    const Goroutine& g = t.goroutines[gi];
    // A select and its cases are written together.
    do {
      out += RecordLine(t, g.gid, t.records[next[gi]]);
      out += '\n';
      next[gi]++;
    } while (next[gi] < g.end && t.records[next[gi]].kind == Kind::SelectCase);
    if (next[gi] < g.end) heads.push({key(gi, next[gi]), gi});
  }
  return out;
}

// ---------------------------------------------------------------------------
// Reading

namespace {

// One line cut into tokens: bare words and Go-quoted strings (a word may end
// in one: val="boom"); a token that starts with // or # ends the line.
bool Tokenize(std::string_view line, std::vector<std::string>* out, std::string* why) {
  out->clear();
  size_t i = 0;
  while (true) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
    if (i >= line.size() || line[i] == '#' || line.substr(i, 2) == "//") return true;
    std::string tok;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
      if (line[i] != '"') {
        tok += line[i++];
        continue;
      }
      size_t j = i + 1;
      while (j < line.size() && line[j] != '"') j += line[j] == '\\' ? 2 : 1;
      if (j >= line.size()) {
        *why = "unterminated string";
        return false;
      }
      std::string s;
      if (!Unquote(line.substr(i, j + 1 - i), &s)) {
        *why = fmt::format("malformed string {}", line.substr(i, j + 1 - i));
        return false;
      }
      tok += '"';  // marks the token as quoted for Value()
      tok += s;
      i = j + 1;
    }
    out->push_back(std::move(tok));
  }
}

bool ParseNum(std::string_view s, int64_t lo, int64_t hi, int64_t* out) {
  if (s.empty()) return false;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out, base);
  return ec == std::errc() && p == s.data() + s.size() && *out >= lo && *out <= hi;
}

class TextReader {
 public:
  TextReader(const std::string& name, Trace* t, TextTraceInfo* info)
      : name_(name), t_(t), info_(info) {}

  bool Parse(std::string_view text, std::string* err) {
    *t_ = Trace();
    memcpy(t_->header.magic, kFileMagic, sizeof kFileMagic);
    t_->header.version = kFormatVersion;
    t_->header.chunk_bytes = kChunkBytes;
    t_->header.record_bytes = sizeof(Record);
    t_->sites.resize(1);
    t_->strings.resize(1);
    std::vector<std::string> toks;
    while (!text.empty()) {
      size_t nl = text.find('\n');
      std::string_view line = text.substr(0, nl);
      text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
      line_++;
      std::string why;
      if (!Tokenize(line, &toks, &why) || !Line(toks, &why)) {
        *err = fmt::format("{}:{}: {}", name_, line_, why);
        return false;
      }
    }
    std::string why;
    if (!Finish(&why)) {
      *err = fmt::format("{}: {}", name_, why);
      return false;
    }
    return true;
  }

 private:
  // A record as read, before the records are grouped by goroutine.
  struct Rec {
    uint32_t gid;
    Record r;
    uint32_t line;
    std::string label;
  };

  bool Line(const std::vector<std::string>& toks, std::string* why) {
    if (toks.empty()) return true;
    const std::string& w = toks[0];
    if (w == "header") return Header(toks, why);
    if (w == "meta") return Meta(toks, why);
    if (w == "site") return SiteLine(toks, why);
    if (w == "string") return StringLine(toks, why);
    if (w == "goroutine") return GoroutineLine(toks, why);
    if (w == "end") return End(toks, why);
    std::string label;
    size_t at = 0;
    if (w.size() > 1 && w.back() == ':') {
      label = w.substr(0, w.size() - 1);
      if (!std::isalpha(static_cast<unsigned char>(label[0])) && label[0] != '_') {
        *why = fmt::format("label {:?} does not start with a letter", label);
        return false;
      }
      if (labels_.count(label)) {
        *why = fmt::format("label {:?} is already used", label);
        return false;
      }
      at = 1;
    }
    if (toks.size() < at + 2) {
      *why = fmt::format("expected a directive or a record (GID KIND ...), got {:?}", w);
      return false;
    }
    return RecordLine(label, toks, at, why);
  }

  // The value of key=value, or nullptr when tok is not that key.
  static const char* Value(const std::string& tok, std::string_view key) {
    if (tok.size() <= key.size() || tok.compare(0, key.size(), key) != 0 ||
        tok[key.size()] != '=') {
      return nullptr;
    }
    return tok.c_str() + key.size() + 1;
  }
  bool Num(const std::string& tok, std::string_view key, int64_t lo, int64_t hi, int64_t* out,
           std::string* why) {
    const char* v = Value(tok, key);
    if (v != nullptr && ParseNum(v, lo, hi, out)) return true;
    *why = fmt::format("{:?}: expected {}=N with N in [{}, {}]", tok, key, lo, hi);
    return false;
  }
  bool Id(const std::string& tok, std::string_view what, uint32_t lo, uint32_t hi, uint32_t* out,
          std::string* why) {
    int64_t v = 0;
    if (!ParseNum(tok, lo, hi, &v)) {
      *why = fmt::format("{:?}: expected {} (a number in [{}, {}])", tok, what, lo, hi);
      return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
  }
  static std::string Unmark(const std::string& tok) {
    return !tok.empty() && tok[0] == '"' ? tok.substr(1) : tok;
  }

  bool Header(const std::vector<std::string>& toks, std::string* why) {
    FileHeader& h = t_->header;
    for (size_t i = 1; i < toks.size(); i++) {
      int64_t v = 0;
      const std::string& k = toks[i];
      if (k == "truncated") {
        t_->truncated = true;
      } else if (Value(k, "version")) {
        if (!Num(k, "version", 1, kFormatVersion, &v, why)) return false;
        h.version = static_cast<uint32_t>(v);
      } else if (Value(k, "chunk_bytes")) {
        if (!Num(k, "chunk_bytes", sizeof(ChunkHeader) + sizeof(Record), 64 << 20, &v, why)) return false;
        h.chunk_bytes = static_cast<uint32_t>(v);
      } else if (Value(k, "flags")) {
        if (!Num(k, "flags", 0, UINT32_MAX, &v, why)) return false;
        h.flags = static_cast<uint32_t>(v);
      } else if (Value(k, "start_unix_ns")) {
        if (!Num(k, "start_unix_ns", 0, INT64_MAX, &v, why)) return false;
        h.start_unix_ns = static_cast<uint64_t>(v);
      } else if (Value(k, "pid")) {
        if (!Num(k, "pid", 0, UINT32_MAX, &v, why)) return false;
        h.pid = static_cast<uint32_t>(v);
      } else {
        *why = fmt::format("unknown header field {:?} (version, chunk_bytes, flags, "
                           "start_unix_ns, pid, truncated)", k);
        return false;
      }
    }
    if (h.flags & kFileTruncated) t_->truncated = true;
    t_->incomplete = IncompleteReason(h);
    return true;
  }

  bool Meta(const std::vector<std::string>& toks, std::string* why) {
    if (toks.size() != 3) {
      *why = "expected: meta KEY VALUE (quote a value with blanks)";
      return false;
    }
    t_->meta[Unmark(toks[1])] = Unmark(toks[2]);
    return true;
  }

  bool SiteLine(const std::vector<std::string>& toks, std::string* why) {
    uint32_t id = 0, line = 0;
    if (toks.size() < 5) {
      *why = "expected: site ID FILE LINE FUNCTION [column=N] [lib]";
      return false;
    }
    if (!Id(toks[1], "a site id", 1, kMaxTextTableId, &id, why) ||
        !Id(toks[3], "a line", 0, UINT32_MAX, &line, why)) {
      return false;
    }
    Site s{Unmark(toks[2]), line, 0, Unmark(toks[4]), true};
    for (size_t i = 5; i < toks.size(); i++) {
      int64_t v = 0;
      if (toks[i] == "lib") {
        s.user = false;
      } else if (Value(toks[i], "column")) {
        if (!Num(toks[i], "column", 0, UINT32_MAX, &v, why)) return false;
        s.column = static_cast<uint32_t>(v);
      } else {
        *why = fmt::format("unknown site field {:?} (column=N, lib)", toks[i]);
        return false;
      }
    }
    if (id < t_->sites.size() && site_defined_.count(id)) {
      *why = fmt::format("site {} is defined twice", id);
      return false;
    }
    if (id < t_->sites.size() && !t_->sites[id].file.empty()) {
      *why = fmt::format("site {} is already taken by a record's own site; define sites "
                         "before the records", id);
      return false;
    }
    if (t_->sites.size() <= id) t_->sites.resize(id + 1);
    t_->sites[id] = std::move(s);
    site_defined_.insert(id);
    return true;
  }

  bool StringLine(const std::vector<std::string>& toks, std::string* why) {
    uint32_t id = 0;
    if (toks.size() != 3 || toks[2].empty() || toks[2][0] != '"') {
      *why = "expected: string ID \"TEXT\"";
      return false;
    }
    if (!Id(toks[1], "a string id", 1, kMaxTextTableId, &id, why)) return false;
    if (t_->strings.size() <= id) t_->strings.resize(id + 1);
    t_->strings[id] = toks[2].substr(1);
    return true;
  }

  bool GoroutineLine(const std::vector<std::string>& toks, std::string* why) {
    uint32_t gid = 0;
    if (toks.size() < 2 || !Id(toks[1], "a goroutine id", 1, kMaxTextGid, &gid, why)) {
      if (toks.size() < 2) *why = "expected: goroutine GID [parent=P index=I]";
      return false;
    }
    max_gid_ = std::max(max_gid_, gid);
    int64_t parent = -1, index = 0;
    for (size_t i = 2; i < toks.size(); i++) {
      bool ok = Value(toks[i], "parent") ? Num(toks[i], "parent", 0, UINT32_MAX, &parent, why)
                : Value(toks[i], "index") ? Num(toks[i], "index", 0, UINT32_MAX, &index, why)
                                          : (*why = fmt::format("unknown goroutine field {:?} "
                                                                "(parent=P, index=I)", toks[i]),
                                             false);
      if (!ok) return false;
    }
    if (parent >= 0) parents_[gid] = {static_cast<uint32_t>(parent), static_cast<uint32_t>(index)};
    return true;
  }

  // A site reference: @ID, @FILE:LINE or @:LINE (a line of this file), found
  // among the sites, else added.
  bool SiteRef(std::string_view ref, uint32_t* out, std::string* why) {
    int64_t v = 0;
    if (ParseNum(ref, 0, kMaxTextTableId, &v)) {
      *out = static_cast<uint32_t>(v);
      return true;
    }
    size_t colon = ref.rfind(':');
    if (colon == 0 && ParseNum(ref.substr(1), 0, UINT32_MAX, &v)) {  // @:LINE, this file
      *out = SiteAt(name_, static_cast<uint32_t>(v));
      return true;
    }
    if (colon == std::string_view::npos || colon == 0 ||
        !ParseNum(ref.substr(colon + 1), 0, UINT32_MAX, &v)) {
      *why = fmt::format("site {:?}: expected @ID, @FILE:LINE or @:LINE", ref);
      return false;
    }
    *out = SiteAt(std::string(ref.substr(0, colon)), static_cast<uint32_t>(v));
    return true;
  }
  uint32_t SiteAt(const std::string& file, uint32_t line) {
    auto [it, fresh] = site_ids_.try_emplace({file, line}, 0);
    if (!fresh) return it->second;
    for (size_t i = 1; i < t_->sites.size(); i++) {
      if (t_->sites[i].file == file && t_->sites[i].line == line) return it->second = i;
    }
    t_->sites.push_back({file, line, 0, "", true});
    return it->second = static_cast<uint32_t>(t_->sites.size() - 1);
  }

  // The stamps of a record given in t=PRE or t=PRE-POST.
  bool Stamps(const std::string& tok, Record* r, std::string* why) {
    std::string_view v = Value(tok, "t");
    size_t dash = v.find('-');
    int64_t pre = 0, post = 0;
    bool ok = dash == std::string_view::npos
                  ? ParseNum(v, 0, UINT32_MAX, &pre) && (post = pre, true)
                  : ParseNum(v.substr(0, dash), 0, UINT32_MAX, &pre) &&
                        ParseNum(v.substr(dash + 1), 0, UINT32_MAX, &post);
    if (!ok) {
      *why = fmt::format("{:?}: expected t=PRE or t=PRE-POST", tok);
      return false;
    }
    r->tpre = static_cast<uint32_t>(pre);
    r->tpost = static_cast<uint32_t>(post);
    now_ = std::max({now_, r->tpre, r->tpost});
    return true;
  }

  // The fields after GID KIND, for a record and for `end`.
  struct Fields {
    bool open = false, stamped = false, sited = false;
  };
  bool RecordFields(const std::vector<std::string>& toks, size_t from, Record* r, Fields* f,
                    bool end, std::string* why) {
    for (size_t i = from; i < toks.size(); i++) {
      const std::string& k = toks[i];
      int64_t v = 0;
      if (int bit = FlagBit(k); bit >= 0) {
        r->flags |= static_cast<uint8_t>(1u << bit);
      } else if (k == "open" && !end) {
        f->open = true;
      } else if (k[0] == '@' && !end) {
        if (!SiteRef(std::string_view(k).substr(1), &r->site, why)) return false;
        f->sited = true;
      } else if (Value(k, "t")) {
        if (!Stamps(k, r, why)) return false;
        f->stamped = true;
      } else if (Value(k, "val")) {
        const char* s = Value(k, "val");
        if (s[0] == '"') {  // val="TEXT": the id of that string
          t_->strings.emplace_back(s + 1);
          r->val = static_cast<uint32_t>(t_->strings.size() - 1);
        } else {
          if (!Num(k, "val", INT32_MIN, UINT32_MAX, &v, why)) return false;
          r->val = static_cast<uint32_t>(v);
        }
      } else if (Value(k, "obj") && !end) {
        if (!Num(k, "obj", 0, UINT32_MAX, &v, why)) return false;
        r->obj = static_cast<uint32_t>(v);
      } else if (Value(k, "aux") && !end) {
        if (!Num(k, "aux", INT16_MIN, UINT16_MAX, &v, why)) return false;
        r->aux = static_cast<uint16_t>(v);
      } else {
        *why = fmt::format("unknown field {:?} (obj=, val=, aux=, a flag, {}@SITE, t=)", k,
                           end ? "" : "open, ");
        return false;
      }
    }
    return true;
  }

  bool RecordLine(const std::string& label, const std::vector<std::string>& toks, size_t at,
                  std::string* why) {
    uint32_t gid = 0;
    if (!Id(toks[at], "a goroutine id", 1, kMaxTextGid, &gid, why)) return false;
    max_gid_ = std::max(max_gid_, gid);
    Record r{};
    if (toks[at + 1] == "go") return Go(label, gid, toks, at + 2, why);
    if (!ParseKindName(toks[at + 1], &r.kind)) {
      *why = fmt::format("unknown record kind {:?} (the names of event.h: ChanSend, ...; or go)",
                         toks[at + 1]);
      return false;
    }
    Fields f;
    if (!RecordFields(toks, at + 2, &r, &f, false, why)) return false;
    if (!f.sited) r.site = SiteAt(name_, line_);
    if (!f.stamped) ImplicitStamps(gid, f.open, &r);
    Add(label, gid, r);
    return true;
  }

  // GID go CHILD [@SITE]: GoSpawn in GID, then GoStart as CHILD's first record.
  bool Go(const std::string& label, uint32_t parent, const std::vector<std::string>& toks,
          size_t at, std::string* why) {
    uint32_t child = 0;
    if (toks.size() <= at || toks.size() > at + 2 ||
        !Id(toks[at], "a child goroutine id", 2, kMaxTextGid, &child, why)) {
      if (why->empty()) *why = "expected: GID go CHILD [@SITE]";
      return false;
    }
    Record spawn{Kind::GoSpawn, 0, 0, 0, 0, 0, child, children_[parent]};
    if (toks.size() == at + 2) {
      if (toks[at + 1][0] != '@') {
        *why = fmt::format("{:?}: expected @SITE", toks[at + 1]);
        return false;
      }
      if (!SiteRef(std::string_view(toks[at + 1]).substr(1), &spawn.site, why)) return false;
    } else {
      spawn.site = SiteAt(name_, line_);
    }
    spawn.tpre = spawn.tpost = ++now_;
    Add(label, parent, spawn);
    uint32_t stamp = ++now_;
    Add("", child, Record{Kind::GoStart, 0, 0, spawn.site, stamp, stamp, parent, spawn.val});
    max_gid_ = std::max(max_gid_, child);
    return true;
  }

  void ImplicitStamps(uint32_t gid, bool open, Record* r) {
    // A select case carries its select's stamps (the chosen one its
    // completion too); `end` of the select completes it.
    if (r->kind == Kind::SelectCase) {
      for (size_t i = recs_.size(); i-- > 0;) {
        const Rec& p = recs_[i];
        if (p.gid != gid) continue;
        if (p.r.kind == Kind::SelectCase) continue;
        if (p.r.kind == Kind::Select) {
          r->tpre = p.r.tpre;
          r->tpost = (r->flags & kChosen) ? p.r.tpost : 0;
          return;
        }
        break;
      }
    }
    r->tpre = ++now_;
    r->tpost = open ? 0 : r->tpre;
  }

  void Add(const std::string& label, uint32_t gid, const Record& r) {
    if (r.kind == Kind::GoSpawn) children_[gid] = std::max(children_[gid], r.val + 1);
    if (!label.empty()) labels_[label] = recs_.size();
    recs_.push_back({gid, r, line_, label});
  }

  // end LABEL [val=N] [FLAG...] [t=POST]: completes an open record.
  bool End(const std::vector<std::string>& toks, std::string* why) {
    if (toks.size() < 2) {
      *why = "expected: end LABEL [val=N] [FLAG...]";
      return false;
    }
    auto it = labels_.find(toks[1]);
    if (it == labels_.end()) {
      *why = fmt::format("end of {:?}: no record has that label", toks[1]);
      return false;
    }
    Record& r = recs_[it->second].r;
    if (r.tpost != 0) {
      *why = fmt::format("end of {:?}: the record is not open", toks[1]);
      return false;
    }
    Record upd = r;
    Fields f;
    if (!RecordFields(toks, 2, &upd, &f, true, why)) return false;
    // t=POST (or t=PRE-POST) on an end gives the completion stamp.
    uint32_t post = f.stamped ? upd.tpost : ++now_;
    upd.tpre = r.tpre;
    upd.tpost = post;
    r = upd;
    if (r.kind == Kind::Select) {
      uint32_t gid = recs_[it->second].gid;
      for (size_t i = it->second + 1; i < recs_.size(); i++) {
        if (recs_[i].gid != gid) continue;
        if (recs_[i].r.kind != Kind::SelectCase) break;
        if (recs_[i].r.flags & kChosen) recs_[i].r.tpost = post;
      }
    }
    return true;
  }

  bool Finish(std::string* why) {
    for (const Rec& x : recs_) {
      if (x.r.site >= t_->sites.size()) {
        *why = fmt::format("line {}: site {} is not defined (site lines)", x.line, x.r.site);
        return false;
      }
      if (x.r.kind == Kind::GoSpawn && x.r.obj != 0 && x.r.obj <= kMaxTextGid) {
        max_gid_ = std::max(max_gid_, x.r.obj);
      }
    }
    // Group by goroutine, each in line order (a stable sort).
    std::vector<uint32_t> order(recs_.size());
    for (uint32_t i = 0; i < order.size(); i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return recs_[a].gid < recs_[b].gid; });
    t_->records.reserve(recs_.size());
    t_->goroutines.resize(max_gid_);
    std::vector<uint32_t> index_of(recs_.size());
    size_t k = 0;
    for (uint32_t g = 1; g <= max_gid_; g++) {
      Goroutine& gr = t_->goroutines[g - 1];
      gr.gid = g;
      gr.begin = static_cast<uint32_t>(t_->records.size());
      for (; k < order.size() && recs_[order[k]].gid == g; k++) {
        index_of[order[k]] = static_cast<uint32_t>(t_->records.size());
        t_->records.push_back(recs_[order[k]].r);
      }
      gr.end = static_cast<uint32_t>(t_->records.size());
    }
    // ReadTrace gives goroutines without records an empty range at the end.
    for (Goroutine& g : t_->goroutines) {
      if (g.begin == g.end) g.begin = g.end = static_cast<uint32_t>(t_->records.size());
    }
    DeriveParents(*t_, &t_->goroutines);
    for (const auto& [gid, p] : parents_) {
      t_->goroutines[gid - 1].parent = p.first;
      t_->goroutines[gid - 1].child_index = p.second;
    }
    if (!t_->goroutines.empty()) t_->goroutines[0].parent = t_->goroutines[0].child_index = 0;
    AssignStableIds(t_);
    if (info_ != nullptr) {
      info_->labels.clear();
      info_->lines.assign(recs_.size(), 0);
      for (uint32_t i = 0; i < recs_.size(); i++) {
        info_->lines[index_of[i]] = recs_[i].line;
        if (!recs_[i].label.empty()) info_->labels[recs_[i].label] = index_of[i];
      }
    }
    return true;
  }

  const std::string& name_;
  Trace* t_;
  TextTraceInfo* info_;
  uint32_t line_ = 0;
  uint32_t now_ = 0;
  uint32_t max_gid_ = 0;
  std::vector<Rec> recs_;
  std::map<std::string, size_t, std::less<>> labels_;
  std::map<uint32_t, uint32_t> children_;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> parents_;
  std::map<std::pair<std::string, uint32_t>, uint32_t> site_ids_;
  std::set<uint32_t> site_defined_;
};

}  // namespace

bool ParseTextTrace(std::string_view text, const std::string& name, Trace* out,
                    std::string* err, TextTraceInfo* info) {
  return TextReader(name, out, info).Parse(text, err);
}

bool ReadTextTrace(const std::string& path, Trace* out, std::string* err, TextTraceInfo* info) {
  std::string text;
  if (!util::ReadWholeFile(path, &text)) {
    *err = fmt::format("{}: cannot open: {}", path, strerror(errno));
    return false;
  }
  return ParseTextTrace(text, path, out, err, info);
}

}  // namespace gordian::trace
