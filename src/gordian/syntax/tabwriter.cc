// This file implements TabWriter, following text/tabwriter's algorithm
// closely: gofmt compatibility depends on its exact column-block rules.
#include "gordian/syntax/tabwriter.h"

namespace gordian::syntax {
namespace {

// Runes in s: bytes that do not continue a UTF-8 sequence (an invalid byte
// counts as one rune, as in Go).
int RuneCount(std::string_view s) {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

TabWriter::TabWriter(std::string* out, int minwidth, int tabwidth, int padding,
                     char padchar, unsigned flags)
    : out_(out), minwidth_(minwidth), tabwidth_(tabwidth), padding_(padding),
      padchar_(padchar), flags_(flags) {
  if (padchar == '\t') flags_ &= ~kAlignRight;
  Reset();
}

void TabWriter::AddLine(bool flushed) {
  if (nlines_ < lines_.size()) {
    lines_[nlines_].clear();
  } else {
    lines_.emplace_back();
  }
  nlines_++;
  if (!flushed && nlines_ >= 2) {
    // Preallocate like the previous line: lines tend to have as many cells.
    lines_[nlines_ - 1].reserve(lines_[nlines_ - 2].size());
  }
}

void TabWriter::Reset() {
  buf_.clear();
  pos_ = 0;
  cell_ = Cell{};
  in_escape_ = false;
  nlines_ = 0;
  widths_.clear();
  AddLine(true);
}

void TabWriter::WritePadding(int textw, int cellw, bool use_tabs) {
  if (padchar_ == '\t' || use_tabs) {
    if (tabwidth_ == 0) return;  // tabs have no width: no padding possible
    cellw = (cellw + tabwidth_ - 1) / tabwidth_ * tabwidth_;
    int n = cellw - textw;
    out_->append(static_cast<size_t>((n + tabwidth_ - 1) / tabwidth_), '\t');
    return;
  }
  if (cellw > textw) out_->append(static_cast<size_t>(cellw - textw), padchar_);
}

size_t TabWriter::WriteLines(size_t pos, size_t line0, size_t line1) {
  for (size_t i = line0; i < line1; i++) {
    const std::vector<Cell>& line = lines_[i];
    // Leading empty cells are indentation: tabs under kTabIndent.
    bool use_tabs = (flags_ & kTabIndent) != 0;
    for (size_t j = 0; j < line.size(); j++) {
      const Cell& c = line[j];
      if (c.size == 0) {
        if (j < widths_.size()) WritePadding(c.width, widths_[j], use_tabs);
      } else {
        use_tabs = false;
        if ((flags_ & kAlignRight) == 0) {
          out_->append(buf_, pos, static_cast<size_t>(c.size));
          pos += static_cast<size_t>(c.size);
          if (j < widths_.size()) WritePadding(c.width, widths_[j], false);
        } else {
          if (j < widths_.size()) WritePadding(c.width, widths_[j], false);
          out_->append(buf_, pos, static_cast<size_t>(c.size));
          pos += static_cast<size_t>(c.size);
        }
      }
    }
    if (i + 1 == nlines_) {
      // The last buffered line: its unterminated cell follows, no newline.
      out_->append(buf_, pos, static_cast<size_t>(cell_.size));
      pos += static_cast<size_t>(cell_.size);
    } else {
      out_->push_back('\n');
    }
  }
  return pos;
}

// Formats lines [line0, line1): finds the blocks of consecutive lines that
// have a cell in the next column, fixes that column's width per block, and
// recurses into the block for the columns further right.
size_t TabWriter::Format(size_t pos, size_t line0, size_t line1) {
  size_t column = widths_.size();
  for (size_t row = line0; row < line1; row++) {
    if (column + 1 >= lines_[row].size()) continue;  // no cell in this column
    // A block starts at row: print the lines before it.
    pos = WriteLines(pos, line0, row);
    line0 = row;
    int width = minwidth_;
    bool discardable = true;  // all cells empty and '\v'-terminated
    for (; row < line1; row++) {
      const std::vector<Cell>& line = lines_[row];
      if (column + 1 >= line.size()) break;
      const Cell& c = line[column];
      if (int w = c.width + padding_; w > width) width = w;
      if (c.width > 0 || c.htab) discardable = false;
    }
    if (discardable && (flags_ & kDiscardEmptyColumns) != 0) width = 0;
    widths_.push_back(width);
    pos = Format(pos, line0, row);
    widths_.pop_back();
    line0 = row;
  }
  return WriteLines(pos, line0, line1);
}

void TabWriter::Append(std::string_view text) {
  buf_.append(text);
  cell_.size += static_cast<int>(text.size());
}

void TabWriter::UpdateWidth() {
  cell_.width += RuneCount(std::string_view(buf_).substr(pos_));
  pos_ = buf_.size();
}

void TabWriter::EndEscape() {
  UpdateWidth();
  cell_.width -= 2;  // the escape bytes are kept but have no width
  pos_ = buf_.size();
  in_escape_ = false;
}

size_t TabWriter::TerminateCell(bool htab) {
  cell_.htab = htab;
  std::vector<Cell>& line = lines_[nlines_ - 1];
  line.push_back(cell_);
  cell_ = Cell{};
  return line.size();
}

void TabWriter::FlushInternal() {
  if (cell_.size > 0) {
    if (in_escape_) EndEscape();
    TerminateCell(false);
  }
  Format(0, 0, nlines_);
  Reset();
}

void TabWriter::Flush() { FlushInternal(); }

void TabWriter::Write(std::string_view text) {
  size_t n = 0;  // text[n:] is not yet appended
  for (size_t i = 0; i < text.size(); i++) {
    char ch = text[i];
    if (!in_escape_) {
      switch (ch) {
        case '\t':
        case '\v':
        case '\n':
        case '\f': {
          Append(text.substr(n, i - n));
          UpdateWidth();
          n = i + 1;
          size_t ncells = TerminateCell(ch == '\t');
          if (ch == '\n' || ch == '\f') {
            AddLine(ch == '\f');
            // A '\f' or a line of one cell ends all column blocks: format now.
            if (ch == '\f' || ncells == 1) FlushInternal();
          }
          break;
        }
        case kEscape:
          Append(text.substr(n, i - n));
          UpdateWidth();
          n = i;
          in_escape_ = true;
          break;
        default:
          break;
      }
    } else if (ch == kEscape) {
      Append(text.substr(n, i + 1 - n));
      n = i + 1;
      EndEscape();
    }
  }
  Append(text.substr(n));
}

}  // namespace gordian::syntax
