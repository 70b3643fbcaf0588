// This file implements SourceFile and SourceSet: file contents, bases and the
// lazy line tables that turn a Pos into file:line:col.
#include "gordian/syntax/source.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace gordian::syntax {

std::string Position::String() const {
  if (!valid()) return "-";
  return fmt::format("{}:{}:{}", filename, line, column);
}

SourceFile::SourceFile(std::string filename, std::string content, Pos base)
    : filename_(std::move(filename)), content_(std::move(content)), base_(base) {
  // std::string guarantees content_[size()] == '\0': that is the sentinel.
}

void SourceFile::BuildLineTable() const {
  line_starts_.reserve(content_.size() / 32 + 1);
  line_starts_.push_back(0);
  const char* b = content_.data();
  const char* e = b + content_.size();
  for (const char* p = b; p < e;) {
    const void* nl = std::memchr(p, '\n', static_cast<size_t>(e - p));
    if (nl == nullptr) break;
    p = static_cast<const char*>(nl) + 1;
    line_starts_.push_back(static_cast<uint32_t>(p - b));
  }
}

Position SourceFile::PositionAt(uint32_t offset) const {
  std::call_once(lines_once_, [this] { BuildLineTable(); });
  offset = std::min(offset, size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  size_t line = static_cast<size_t>(it - line_starts_.begin());  // 1-based
  Position pos;
  pos.filename = filename_;
  pos.line = static_cast<uint32_t>(line);
  pos.column = offset - line_starts_[line - 1] + 1;
  pos.offset = offset;
  return pos;
}

std::string_view SourceFile::LineText(uint32_t line) const {
  std::call_once(lines_once_, [this] { BuildLineTable(); });
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t b = line_starts_[line - 1];
  uint32_t e = line < line_starts_.size() ? line_starts_[line] : size();
  std::string_view text(content_.data() + b, e - b);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

SourceFile* SourceSet::AddFile(std::string filename, std::string content) {
  std::lock_guard<std::mutex> lock(mu_);
  auto size = static_cast<uint32_t>(content.size());
  auto file = std::make_unique<SourceFile>(std::move(filename), std::move(content),
                                           next_base_);
  // +1 so that the EOF position of one file is not the base of the next.
  next_base_ += size + 1;
  files_.push_back(std::move(file));
  return files_.back().get();
}

SourceFile* SourceSet::ReadFile(const std::string& path, std::string* err) {
  // Paths can come from a trace (a site's file): a FIFO would block for
  // ever and /dev/zero never ends, so only regular files of a sane size are
  // read, and that is known before reading.
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    *err = fmt::format("{}: not a regular file", path);
    return nullptr;
  }
  if (!ec && std::filesystem::exists(st) &&
      std::filesystem::file_size(path, ec) >= (uint64_t{1} << 31) && !ec) {
    *err = fmt::format("{}: file too large", path);
    return nullptr;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *err = fmt::format("{}: cannot open file: {}", path, std::strerror(errno));
    return nullptr;
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) {
    *err = fmt::format("{}: read error", path);
    return nullptr;
  }
  std::string content = std::move(buf).str();
  if (content.size() >= (uint64_t{1} << 31)) {
    *err = fmt::format("{}: file too large ({} bytes)", path, content.size());
    return nullptr;
  }
  return AddFile(path, std::move(content));
}

const SourceFile* SourceSet::FileOf(Pos p) const {
  if (p == kNoPos) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::upper_bound(files_.begin(), files_.end(), p,
                             [](Pos v, const auto& f) { return v < f->base(); });
  if (it == files_.begin()) return nullptr;
  const SourceFile* f = std::prev(it)->get();
  return f->Contains(p) ? f : nullptr;
}

Position SourceSet::Resolve(Pos p) const {
  const SourceFile* f = FileOf(p);
  if (f == nullptr) return {};
  return f->PositionAt(f->OffsetOf(p));
}

}  // namespace gordian::syntax
