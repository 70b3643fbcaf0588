// This file owns Go source files in memory and the positions into them.
//
// A Pos is a 32-bit offset into a SourceSet: every file added to the set gets
// a base, and a position inside the file is base + byte offset. Pos 0 means
// "no position" (bases start at 1). Line and column are computed only when a
// report needs them, by binary search over a line table that is built lazily
// on first use (STYLE habit 4: only the error and report paths pay).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace gordian::syntax {

using Pos = uint32_t;
inline constexpr Pos kNoPos = 0;

// A resolved position: what users see as file:line:col. Line and column are
// 1-based; the column counts bytes, as the Go compiler does.
struct Position {
  std::string_view filename;  // empty for kNoPos
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t offset = 0;  // byte offset in the file

  bool valid() const { return line > 0; }
  // "file:line:col" (or "-" when invalid).
  std::string String() const;
};

class SourceFile {
 public:
  SourceFile(std::string filename, std::string content, Pos base);

  const std::string& filename() const { return filename_; }
  // The file's bytes. The buffer is followed by at least one NUL byte, which
  // the scanner uses as a sentinel.
  std::string_view content() const { return {content_.data(), content_.size()}; }
  const char* data() const { return content_.data(); }
  uint32_t size() const { return static_cast<uint32_t>(content_.size()); }
  Pos base() const { return base_; }
  Pos PosAt(uint32_t offset) const { return base_ + offset; }
  uint32_t OffsetOf(Pos p) const { return p - base_; }
  bool Contains(Pos p) const { return p >= base_ && p <= base_ + size(); }

  // Line and column of a byte offset (1-based).
  Position PositionAt(uint32_t offset) const;
  // The text of a 1-based line without its newline (empty if out of range).
  std::string_view LineText(uint32_t line) const;

 private:
  void BuildLineTable() const;

  std::string filename_;
  std::string content_;
  Pos base_;
  mutable std::once_flag lines_once_;
  mutable std::vector<uint32_t> line_starts_;  // offset of each line's first byte
};

// The set of all files of one run. Files are never removed, so pointers and
// string_views into them stay valid for the set's lifetime.
class SourceSet {
 public:
  SourceSet() = default;
  SourceSet(const SourceSet&) = delete;
  SourceSet& operator=(const SourceSet&) = delete;

  // Adds a file with the given content; thread-safe.
  SourceFile* AddFile(std::string filename, std::string content);
  // Reads a file from disk; returns nullptr and sets *err on failure.
  SourceFile* ReadFile(const std::string& path, std::string* err);

  // The file holding p, or nullptr for kNoPos or an unknown position.
  const SourceFile* FileOf(Pos p) const;
  Position Resolve(Pos p) const;

 private:
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<SourceFile>> files_;  // sorted by base
  Pos next_base_ = 1;
};

}  // namespace gordian::syntax
