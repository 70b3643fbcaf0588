// This file owns elastic tabstops: the column alignment that gofmt applies to
// the printer's raw output (a port of Go's text/tabwriter, which go/printer
// uses, so that aligned comments, struct fields and const blocks come out as
// gofmt prints them).
//
// Input text is split into cells by '\t' and '\v' (a cell is the text before
// such a terminator); consecutive lines that have a cell in column k form a
// column block whose width is the widest cell plus padding. A line with a
// single cell, or a '\f', ends all open blocks. Text between two kEscape
// bytes is one opaque piece (tabs and newlines in it do not count); the
// escape bytes themselves are passed through and not counted in the width.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gordian::syntax {

class TabWriter {
 public:
  static constexpr char kEscape = '\xff';

  enum Flags : unsigned {
    kAlignRight = 1 << 0,           // right-align cell content
    kDiscardEmptyColumns = 1 << 1,  // columns of only empty '\v' cells get no width
    kTabIndent = 1 << 2,            // leading empty cells are tabs, not padchars
  };

  // Output is appended to *out. Widths are in runes (UTF-8 code points).
  TabWriter(std::string* out, int minwidth, int tabwidth, int padding, char padchar,
            unsigned flags);

  void Write(std::string_view text);
  // Formats and emits everything buffered; call once at the end.
  void Flush();

 private:
  struct Cell {
    int size = 0;       // bytes
    int width = 0;      // runes
    bool htab = false;  // terminated by '\t' rather than '\v'
  };

  void AddLine(bool flushed);
  void Reset();
  void WritePadding(int textw, int cellw, bool use_tabs);
  size_t WriteLines(size_t pos, size_t line0, size_t line1);
  size_t Format(size_t pos, size_t line0, size_t line1);
  void Append(std::string_view text);
  void UpdateWidth();
  void EndEscape();
  size_t TerminateCell(bool htab);
  void FlushInternal();

  std::string* out_;
  int minwidth_;
  int tabwidth_;
  int padding_;
  char padchar_;
  unsigned flags_;

  std::string buf_;                // cell text without terminators
  size_t pos_ = 0;                 // buf_ offset up to which cell_.width is computed
  Cell cell_;                      // the current, unterminated cell
  bool in_escape_ = false;
  std::vector<std::vector<Cell>> lines_;
  size_t nlines_ = 0;              // lines_[0, nlines_) are in use (vectors are reused)
  std::vector<int> widths_;        // column widths of the enclosing blocks
};

}  // namespace gordian::syntax
