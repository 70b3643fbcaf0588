// This file implements the side-file parsers and printers (side_files.h).
//
// Line formats (fields separated by one tab):
//   sites.txt       id  user(0|1)  file  line  function   [column as a 6th field]
//   strings.txt     id  "Go-quoted string"
//   meta.txt        key=value
//   goroutines.txt  gid  parent  child-index
#include "gordian/trace/side_files.h"
#include "gordian/util/escape.h"
#include "gordian/util/whole_number.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <vector>

#include <fmt/format.h>

namespace gordian::trace {
namespace {

using util::ParseWholeNumber;

// Ids above this in a side file are treated as corrupt, so that a garbage
// line cannot make the reader allocate gigabytes.
constexpr uint32_t kMaxSideId = 1u << 24;
// Site and string ids are dense from 1, one per line: an id far beyond the
// file's line count is corrupt, and honouring it would allocate a table of
// that size (a 30-byte line with id 16777216 cost 1.3 GB).
constexpr uint32_t kSideIdSlack = 1024;
constexpr uint64_t kMaxSideFileBytes = uint64_t{1} << 30;
constexpr size_t kMaxSideWarnings = 10;

// Splits on tabs, or on runs of spaces when the line has no tab.
std::vector<std::string_view> Fields(std::string_view line, size_t max_fields) {
  std::vector<std::string_view> out;
  char sep = line.find('\t') != std::string_view::npos ? '\t' : ' ';
  while (!line.empty() && out.size() + 1 < max_fields) {
    size_t i = line.find(sep);
    if (i == std::string_view::npos) break;
    if (i > 0 || sep == '\t') out.push_back(line.substr(0, i));
    line.remove_prefix(i + 1);
  }
  out.push_back(line);
  return out;
}

// Reads path line by line into fn(line, lineno). A missing file is reported
// through *missing; a read error fails.
template <typename Fn>
bool ForEachLine(const std::string& path, bool* missing, std::string* err, Fn fn,
                 uint32_t* line_count = nullptr) {
  // Refuse what is not a regular file before reading it (a FIFO would
  // block, /dev/zero behind a symlink never ends), and what is larger than
  // any recorder writes.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  *missing = fd < 0 && errno == ENOENT;
  if (fd < 0) {
    if (*missing) return true;
    *err = fmt::format("{}: {}", path, strerror(errno));
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<uint64_t>(st.st_size) > kMaxSideFileBytes) {
    *err = fmt::format("{}: not a regular file of a sane size (at most {} MiB); a trace's side "
                       "files are written by the recorder",
                       path, kMaxSideFileBytes >> 20);
    close(fd);
    return false;
  }
  FILE* f = fdopen(fd, "rb");
  if (f == nullptr) {
    close(fd);
    *err = fmt::format("{}: {}", path, strerror(errno));
    return false;
  }
  std::string content;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) content.append(buf, n);
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    *err = fmt::format("{}: read error", path);
    return false;
  }
  if (line_count != nullptr) {
    *line_count = static_cast<uint32_t>(std::count(content.begin(), content.end(), '\n') + 1);
  }
  std::string_view rest = content;
  uint32_t lineno = 0;
  while (!rest.empty()) {
    lineno++;
    size_t nl = rest.find('\n');
    bool complete = nl != std::string_view::npos;
    std::string_view line = rest.substr(0, complete ? nl : rest.size());
    rest.remove_prefix(complete ? nl + 1 : rest.size());
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    fn(line, lineno, complete);
  }
  return true;
}

class SideWarnings {
 public:
  SideWarnings(Trace* t, std::string file) : t_(t), file_(std::move(file)) {}
  ~SideWarnings() {
    if (n_ > kMaxSideWarnings) {
      t_->warnings.push_back(fmt::format("{}: ... and {} more bad lines", file_,
                                         n_ - kMaxSideWarnings));
    }
  }
  void Bad(uint32_t lineno, std::string_view why, bool complete) {
    if (++n_ > kMaxSideWarnings) return;
    t_->warnings.push_back(fmt::format("{}:{}: {}{}; line skipped", file_, lineno, why,
                                       complete ? "" : " (torn last line)"));
  }

 private:
  Trace* t_;
  std::string file_;
  size_t n_ = 0;
};

}  // namespace

std::string Quote(std::string_view s) {
  std::string out = "\"";
  util::AppendEscaped(&out, s, util::kStringEscapes, util::OtherControls::kHex);
  out += '"';
  return out;
}

bool Unquote(std::string_view q, std::string* out) {
  out->clear();
  if (q.size() < 2 || q.front() != '"' || q.back() != '"') return false;
  q = q.substr(1, q.size() - 2);
  for (size_t i = 0; i < q.size(); i++) {
    char c = q[i];
    if (c != '\\') {
      if (c == '"') return false;
      *out += c;
      continue;
    }
    if (++i >= q.size()) return false;
    switch (q[i]) {
      case 'n': *out += '\n'; break;
      case 't': *out += '\t'; break;
      case 'r': *out += '\r'; break;
      case 'a': *out += '\a'; break;
      case 'b': *out += '\b'; break;
      case 'f': *out += '\f'; break;
      case 'v': *out += '\v'; break;
      case '\\': *out += '\\'; break;
      case '"': *out += '"'; break;
      case '\'': *out += '\''; break;
      case 'x': {
        uint32_t v = 0;
        if (i + 2 >= q.size()) return false;
        auto [p, ec] = std::from_chars(q.data() + i + 1, q.data() + i + 3, v, 16);
        if (ec != std::errc() || p != q.data() + i + 3) return false;
        *out += static_cast<char>(v);
        i += 2;
        break;
      }
      case 'u': case 'U': {
        size_t len = q[i] == 'u' ? 4 : 8;
        if (i + len >= q.size()) return false;
        uint32_t cp = 0;
        auto [p, ec] = std::from_chars(q.data() + i + 1, q.data() + i + 1 + len, cp, 16);
        if (ec != std::errc() || p != q.data() + i + 1 + len || cp > 0x10ffff) return false;
        // UTF-8 encode.
        if (cp < 0x80) {
          *out += static_cast<char>(cp);
        } else if (cp < 0x800) {
          *out += static_cast<char>(0xc0 | (cp >> 6));
          *out += static_cast<char>(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
          *out += static_cast<char>(0xe0 | (cp >> 12));
          *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
          *out += static_cast<char>(0x80 | (cp & 0x3f));
        } else {
          *out += static_cast<char>(0xf0 | (cp >> 18));
          *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
          *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
          *out += static_cast<char>(0x80 | (cp & 0x3f));
        }
        i += len;
        break;
      }
      default:
        // Octal \NNN.
        if (q[i] >= '0' && q[i] <= '7' && i + 2 < q.size()) {
          uint32_t v = 0;
          auto [p, ec] = std::from_chars(q.data() + i, q.data() + i + 3, v, 8);
          if (ec != std::errc() || p != q.data() + i + 3 || v > 255) return false;
          *out += static_cast<char>(v);
          i += 2;
          break;
        }
        return false;
    }
  }
  return true;
}

std::string FormatSiteLine(uint32_t id, const Site& s) {
  std::string line = fmt::format("{}\t{}\t{}\t{}\t{}", id, s.user ? 1 : 0, s.file,
                                 s.line, s.function);
  if (s.column != 0) line += fmt::format("\t{}", s.column);
  return line;
}

std::string FormatStringLine(uint32_t id, std::string_view s) {
  return fmt::format("{}\t{}", id, Quote(s));
}

std::string FormatMetaLine(std::string_view key, std::string_view value) {
  std::string v(value);
  for (char& c : v) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return fmt::format("{}={}", key, v);
}

bool LoadSideFiles(const std::string& dir, Trace* t, std::string* err) {
  bool missing = false;
  if (t->sites.empty()) t->sites.resize(1);
  if (t->strings.empty()) t->strings.resize(1);

  uint32_t site_lines = 0, string_lines = 0;  // set before the lines are parsed
  {
    SideWarnings w(t, "sites.txt");
    auto site = [&](std::string_view line, uint32_t lineno, bool complete) {
      std::vector<std::string_view> f = Fields(line, 6);
      uint32_t id = 0, line_no = 0, col = 0;
      if (f.size() < 5 || !ParseWholeNumber(f[0], &id) ||
          !ParseWholeNumber(f[3], &line_no) || (f[1] != "0" && f[1] != "1") ||
          (f.size() == 6 && !ParseWholeNumber(f[5], &col))) {
        w.Bad(lineno, "expected: id, user flag, file, line, function", complete);
        return;
      }
      if (id == 0 || id > kMaxSideId || id > 2 * site_lines + kSideIdSlack) {
        w.Bad(lineno, fmt::format("site id {} out of range", id), complete);
        return;
      }
      if (t->sites.size() <= id) t->sites.resize(id + 1);
      Site& s = t->sites[id];
      s.user = f[1] == "1";
      s.file = std::string(f[2]);
      s.line = line_no;
      s.column = col;
      s.function = std::string(f[4]);
    };
    if (!ForEachLine(dir + "/sites.txt", &missing, err, site, &site_lines)) return false;
    if (missing) t->warnings.push_back("sites.txt is missing: positions are unknown");
  }

  {
    SideWarnings w(t, "strings.txt");
    std::string value;
    auto str = [&](std::string_view line, uint32_t lineno, bool complete) {
      std::vector<std::string_view> f = Fields(line, 2);
      uint32_t id = 0;
      if (f.size() < 2 || !ParseWholeNumber(f[0], &id)) {
        w.Bad(lineno, "expected: id, quoted string", complete);
        return;
      }
      if (id == 0 || id > kMaxSideId || id > 2 * string_lines + kSideIdSlack) {
        w.Bad(lineno, fmt::format("string id {} out of range", id), complete);
        return;
      }
      if (!f[1].empty() && f[1][0] == '"') {
        if (!Unquote(f[1], &value)) {
          w.Bad(lineno, "malformed quoted string", complete);
          return;
        }
      } else {
        value = std::string(f[1]);
      }
      if (t->strings.size() <= id) t->strings.resize(id + 1);
      t->strings[id] = value;
    };
    if (!ForEachLine(dir + "/strings.txt", &missing, err, str, &string_lines)) return false;
  }

  {
    SideWarnings w(t, "meta.txt");
    auto meta = [&](std::string_view line, uint32_t lineno, bool complete) {
      size_t eq = line.find('=');
      if (eq == std::string_view::npos || eq == 0) {
        w.Bad(lineno, "expected key=value", complete);
        return;
      }
      t->meta[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
    };
    if (!ForEachLine(dir + "/meta.txt", &missing, err, meta)) return false;
  }
  return true;
}

bool LoadGoroutineFile(const std::string& dir, Trace* t, std::string* err) {
  bool missing = false;
  SideWarnings w(t, "goroutines.txt");
  auto g = [&](std::string_view line, uint32_t lineno, bool complete) {
    std::vector<std::string_view> f = Fields(line, 3);
    uint32_t gid = 0, parent = 0, index = 0;
    if (f.size() < 3 || !ParseWholeNumber(f[0], &gid) ||
        !ParseWholeNumber(f[1], &parent) || !ParseWholeNumber(f[2], &index)) {
      w.Bad(lineno, "expected: gid, parent gid, child index", complete);
      return;
    }
    if (gid <= 1 || gid > t->goroutines.size()) return;  // unknown to events.bin
    Goroutine& gr = t->goroutines[gid - 1];
    if (gr.parent == 0) {
      gr.parent = parent;
      gr.child_index = index;
    }
  };
  return ForEachLine(dir + "/goroutines.txt", &missing, err, g);
}

}  // namespace gordian::trace
