// This file implements the printer's comments and whitespace (go/printer's
// printer.go): interspersing the file's comments by position, buffering and
// writing whitespace and indentation, and the print interface through which
// the node layouts emit tokens. See printer.cc for the printer as a whole.
#include "gordian/syntax/printer_internal.h"
#include "gordian/syntax/tabwriter.h"

namespace gordian::syntax::printer_internal {

void Printer::NextComment() {
  if (cindex_ < group_end_) {
    cur_group_ = cindex_++;
    const CommentGroup& g = cx_->groups()[static_cast<size_t>(cur_group_)];
    comment_offset_ = cx_->PosFor(CommentAt(g.first).pos).offset;
    comment_newline_ = g.has_newline;
    return;
  }
  cur_group_ = -1;
  comment_offset_ = kInfinity;
}

// commentBefore reports whether the current comment group occurs before
// the next position in the source code and printing it does not introduce
// implicit semicolons.
//
// Gordian: a group that will be printed on a line of its own (it began its
// source line, or the printer is on another line) also needs a line break
// before it; after a token that implies a semicolon it waits, like a group
// with newlines. go/printer would print it and break the statement when
// the token it follows was printed earlier than its source position (as
// the `]` of `[...]T`, which has no recorded position).
bool Printer::CommentBefore(SrcPos next) {
  if (comment_offset_ >= next.offset) return false;
  if (!implied_semi_ || comment_newline_) return !implied_semi_;
  const Comment& c = CommentAt(cx_->groups()[static_cast<size_t>(cur_group_)].first);
  return PosFor(c.pos).line == last_.line && !cx_->StartsLine(c);
}

// commentSizeBefore returns the estimated size of the comments on the
// same line before the next position.
int Printer::CommentSizeBefore(SrcPos next) {
  int saved_cindex = cindex_, saved_cur = cur_group_, saved_offset = comment_offset_;
  bool saved_newline = comment_newline_;
  int size = 0;
  while (CommentBefore(next)) {
    const CommentGroup& g = cx_->groups()[static_cast<size_t>(cur_group_)];
    for (int i = g.first; i < g.last; i++) size += static_cast<int>(CommentAt(i).text.size());
    NextComment();
  }
  cindex_ = saved_cindex;
  cur_group_ = saved_cur;
  comment_offset_ = saved_offset;
  comment_newline_ = saved_newline;
  return size;
}

void Printer::WriteIndent() {
  int n = indent_;
  output_.append(static_cast<size_t>(std::max(n, 0)), '\t');
  pos_.offset += n;
  pos_.column += n;
  out_.column += n;
}

// writeByte writes ch n times to the output and updates the positions.
// Only used to write formatting (white space) characters.
void Printer::WriteByte(char ch, int n) {
  if (end_alignment_) {
    // Ignore any alignment control character; and at the end of the line,
    // break with a formfeed to indicate termination of existing columns.
    if (ch == '\t' || ch == '\v') {
      ch = ' ';
    } else if (ch == '\n' || ch == '\f') {
      ch = '\f';
      end_alignment_ = false;
    }
  }
  if (out_.column == 1) WriteIndent();
  output_.append(static_cast<size_t>(n), ch);
  pos_.offset += n;
  if (ch == '\n' || ch == '\f') {
    pos_.line += n;
    out_.line += n;
    pos_.column = 1;
    out_.column = 1;
    return;
  }
  pos_.column += n;
  out_.column += n;
}

// writeString writes s (a token, literal or comment) and updates the
// positions. If is_lit is set, s is escaped so that the tabwriter passes it
// through unchanged.
void Printer::WriteString(SrcPos pos, std::string_view s, bool is_lit) {
  if (out_.column == 1) WriteIndent();
  if (pos.valid()) pos_ = pos;  // else continue with the existing pos_
  if (is_lit) output_.push_back(TabWriter::kEscape);
  output_.append(s);
  int nlines = 0;
  size_t li = 0;  // index of the last newline
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == '\n' || s[i] == '\f') {
      nlines++;
      li = i;
      // A line break inside a literal will break whatever column
      // formatting is in place; ignore any further alignment through the
      // end of the line.
      end_alignment_ = true;
    }
  }
  pos_.offset += static_cast<int>(s.size());
  if (nlines > 0) {
    pos_.line += nlines;
    out_.line += nlines;
    int c = static_cast<int>(s.size() - li);
    pos_.column = c;
    out_.column = c;
  } else {
    pos_.column += static_cast<int>(s.size());
    out_.column += static_cast<int>(s.size());
  }
  if (is_lit) output_.push_back(TabWriter::kEscape);
  last_ = pos_;
}

// writeCommentPrefix writes the whitespace before a comment. If there is
// any pending whitespace, it consumes as much of it as is likely to help
// position the comment nicely. pos is the comment position, next the
// position of the item after all pending comments, prev is the previous
// comment in a group of comments (or null), and tok is the next token.
void Printer::WriteCommentPrefix(SrcPos pos, SrcPos next, const Comment* prev, const Comment& c,
                                 TK tok) {
  if (output_.empty()) {
    // the comment is the first item to be printed - don't write any whitespace
    return;
  }
  // Gordian: a comment that began its source line begins its output line
  // (go/printer may join it to the previous line when the position it
  // estimated for the previous token is past the comment). For a //line or
  // //go: directive this is a matter of meaning, not looks.
  bool force_line = cx_->StartsLine(c);
  // Gordian: and one that followed a token on its line stays on the output
  // line, before any pending line break (it may follow a token that the
  // tree does not keep, as the `()` of an empty result list).
  bool stay = !force_line && prev == nullptr;
  if ((pos.line == last_.line || stay) && (prev == nullptr || prev->text[1] != '/') &&
      !force_line) {
    // comment on the same line as last item:
    // separate with at least one separator
    bool has_sep = false;
    if (prev == nullptr) {
      // first comment of a comment group
      size_t j = 0;
      for (size_t i = 0; i < wsbuf_.size(); i++) {
        WS ch = wsbuf_[i];
        if (ch == blank) {
          // ignore any blanks before a comment
          wsbuf_[i] = ignore;
          continue;
        }
        if (ch == vtab) {
          // respect existing tabs - important for proper formatting of
          // commented structs
          has_sep = true;
          continue;
        }
        if (ch == indent) continue;  // apply pending indentation
        j = i;
        break;
      }
      WriteWhitespace(j);
    }
    // make sure there is at least one separator
    if (!has_sep) {
      char sep = '\t';
      if (pos.line == next.line) {
        // next item is on the same line as the comment (which must be a
        // /*-style comment): separate with a blank instead of a tab
        sep = ' ';
      }
      WriteByte(sep, 1);
    }
  } else {
    // comment on a different line:
    // separate with at least one line break
    bool dropped_linebreak = false;
    size_t j = 0;
    for (size_t i = 0; i < wsbuf_.size(); i++) {
      WS ch = wsbuf_[i];
      if (ch == blank || ch == vtab) {
        // ignore any horizontal whitespace before line breaks
        wsbuf_[i] = ignore;
        continue;
      }
      if (ch == indent) continue;  // apply pending indentation
      if (ch == unindent) {
        // if this is not the last unindent, apply it as it is (likely)
        // belonging to the last construct (e.g., a multi-line expression
        // list) and is not part of closing a block
        if (i + 1 < wsbuf_.size() && wsbuf_[i + 1] == unindent) continue;
        // if the next token is not a closing }, apply the unindent if it
        // appears that the comment is aligned with the token; otherwise
        // assume the unindent is part of a closing block and stop (this
        // scenario appears with comments before a case label where the
        // comments apply to the next case instead of the current one)
        if (tok != TK::Rbrace && pos.column == next.column) continue;
      }
      if (ch == newline || ch == formfeed) {
        wsbuf_[i] = ignore;
        dropped_linebreak = prev == nullptr;  // record only if first comment of a group
      }
      j = i;
      break;
    }
    WriteWhitespace(j);

    // determine number of linebreaks before the comment
    int n = 0;
    if (pos.valid() && last_.valid()) n = std::max(pos.line - last_.line, 0);
    // at the package scope level only (indent == 0), add an extra newline
    // if we dropped one before: this preserves a blank line before
    // documentation comments at the package scope level (go/printer; Go
    // issue 2570)
    if (indent_ == 0 && dropped_linebreak) n++;
    // make sure there is at least one line break if the previous comment
    // was a line comment
    if (n == 0 && prev != nullptr && prev->text[1] == '/') n = 1;
    if (n == 0 && force_line) n = 1;
    if (n > 0) {
      // use formfeeds to break columns before a comment; this is
      // analogous to using formfeeds to separate individual lines of
      // /*-style comments
      WriteByte('\f', std::min(n, kMaxNewlines));
    }
  }
}

void Printer::WriteComment(const Comment& c) {
  std::string_view text = c.text;
  SrcPos pos = PosFor(c.pos);
  int saved_indent = indent_;
  if (text.starts_with("//line ") && (!pos.valid() || pos.column == 1)) {
    // Possibly a //-style line directive. Suspend indentation temporarily
    // to keep line directive valid.
    indent_ = 0;
  }
  // Gordian: every comment, /*-style ones included, is written verbatim:
  // go/printer re-indents the lines of /* */ comments, which would change
  // their text.
  WriteString(pos, text, true);
  indent_ = saved_indent;
}

// writeCommentSuffix writes a line break after a comment if indicated and
// processes any leftover indentation information. If a line break is
// needed, the kind of break (newline vs formfeed) depends on the pending
// whitespace. Returns whether a newline was written and whether a formfeed
// was dropped from the whitespace buffer.
std::pair<bool, bool> Printer::WriteCommentSuffix(bool needs_linebreak) {
  bool wrote_newline = false, dropped_ff = false;
  for (WS& ch : wsbuf_) {
    if (ch == blank || ch == vtab) {
      ch = ignore;  // ignore trailing whitespace
    } else if (ch == newline || ch == formfeed) {
      // if we need a line break, keep exactly one but remember if we
      // dropped any formfeeds
      if (needs_linebreak) {
        needs_linebreak = false;
        wrote_newline = true;
      } else {
        if (ch == formfeed) dropped_ff = true;
        ch = ignore;
      }
    }
  }
  WriteWhitespace(wsbuf_.size());
  // make sure we have a line break
  if (needs_linebreak) {
    WriteByte('\n', 1);
    wrote_newline = true;
  }
  return {wrote_newline, dropped_ff};
}

bool Printer::ContainsLinebreak() const {
  for (WS ch : wsbuf_) {
    if (ch == newline || ch == formfeed) return true;
  }
  return false;
}

// intersperseComments consumes all comments that appear before the next
// token tok and prints them together with the buffered whitespace.
std::pair<bool, bool> Printer::IntersperseComments(SrcPos next, TK tok) {
  const Comment* last = nullptr;
  while (CommentBefore(next)) {
    const CommentGroup& g = cx_->groups()[static_cast<size_t>(cur_group_)];
    for (int i = g.first; i < g.last; i++) {
      const Comment& c = CommentAt(i);
      WriteCommentPrefix(PosFor(c.pos), next, last, c, tok);
      WriteComment(c);
      last = &c;
    }
    NextComment();
  }
  if (last != nullptr) {
    // If the last comment is a /*-style comment and the next item follows
    // on the same line but is not a comma, and not a "closing" token
    // immediately following its corresponding "opening" token, add an
    // extra separator unless explicitly disabled. Use a blank as separator
    // unless we have pending linebreaks, they are not disabled, and we are
    // outside a composite literal, in which case we want a linebreak
    // (go/printer; Go issue 15137).
    bool needs_linebreak = false;
    if ((mode_ & kNoExtraBlank) == 0 && last->text[1] == '*' &&
        LineFor(last->pos) == next.line && tok != TK::Comma &&
        (tok != TK::Rparen || prev_open_ == TK::Lparen) &&
        (tok != TK::Rbrack || prev_open_ == TK::Lbrack)) {
      if (ContainsLinebreak() && (mode_ & kNoExtraLinebreak) == 0 && level_ == 0) {
        needs_linebreak = true;
      } else {
        WriteByte(' ', 1);
      }
    }
    // Ensure that there is a line break after a //-style comment, before
    // EOF, and before a closing '}' unless explicitly disabled.
    if (last->text[1] == '/' || tok == TK::Eof ||
        (tok == TK::Rbrace && (mode_ & kNoExtraLinebreak) == 0)) {
      needs_linebreak = true;
    }
    return WriteCommentSuffix(needs_linebreak);
  }
  return {false, false};
}

// writeWhitespace writes the first n whitespace entries.
void Printer::WriteWhitespace(size_t n) {
  for (size_t i = 0; i < n; i++) {
    WS ch = wsbuf_[i];
    switch (ch) {
      case WS::ignore:
        break;
      case WS::indent:
        indent_++;
        break;
      case WS::unindent:
        indent_--;
        if (indent_ < 0) indent_ = 0;
        break;
      case WS::newline:
      case WS::formfeed:
        // A line break immediately followed by a "correcting" unindent is
        // swapped with the unindent - this permits proper label
        // positioning. If a comment is between the line break and the
        // label, the unindent is not part of the comment whitespace prefix
        // and the comment will be positioned correctly indented.
        if (i + 1 < n && wsbuf_[i + 1] == unindent) {
          // Use a formfeed to terminate the current section. Otherwise, a
          // long label name on the next line leading to a wide column may
          // increase the indentation column of lines before the label;
          // effectively leading to wrong indentation.
          wsbuf_[i] = unindent;
          wsbuf_[i + 1] = formfeed;
          i--;  // do it again
          continue;
        }
        [[fallthrough]];
      default:
        WriteByte(static_cast<char>(ch), 1);
        break;
    }
  }
  // shift remaining entries down
  wsbuf_.erase(wsbuf_.begin(), wsbuf_.begin() + static_cast<std::ptrdiff_t>(n));
}

// Prints the comments on the source line of the last token printed.
void Printer::FlushTrailing() {
  if (cur_group_ < 0) return;
  const Comment& c = CommentAt(cx_->groups()[static_cast<size_t>(cur_group_)].first);
  SrcPos cp = PosFor(c.pos);
  if (cp.line != last_.line || cp.offset < last_.offset) return;
  // Everything up to the start of the next line. The pending line break
  // must survive: a /*-style comment's suffix drops it, expecting the next
  // token's source line to bring it back, which an estimate cannot.
  auto [wrote_newline, dropped_ff] =
      Flush({cx_->LineEndOffset(cp.line), cp.line + 1, 1}, TK::Illegal);
  if (!wrote_newline && !ContainsLinebreak()) P(dropped_ff ? formfeed : newline);
}

// flush prints any pending comments and whitespace occurring textually
// before the position of the next token tok.
std::pair<bool, bool> Printer::Flush(SrcPos next, TK tok) {
  if (CommentBefore(next)) return IntersperseComments(next, tok);
  WriteWhitespace(wsbuf_.size());
  return {false, false};
}

void Printer::TrackOpen() {
  switch (last_tok_) {
    case TK::Illegal:
      break;
    case TK::Lparen:
    case TK::Lbrack:
      prev_open_ = last_tok_;
      break;
    default:
      prev_open_ = TK::Illegal;
  }
}

void Printer::P(WS x) {
  TrackOpen();
  if (x == ignore) {
    // don't add ignore's to the buffer; they may screw up "correcting"
    // unindents (see LabeledStmt)
    return;
  }
  if (wsbuf_.size() == 16) {
    // Whitespace sequences are very short so this should never happen.
    WriteWhitespace(wsbuf_.size());
  }
  wsbuf_.push_back(x);
  if (x == newline || x == formfeed) {
    // newlines affect the current state (impliedSemi) and not the state
    // after printing arg (impliedSemi) because comments can be
    // interspersed before the arg in this case
    implied_semi_ = false;
  }
  last_tok_ = TK::Illegal;
}

bool Printer::MayCombine(TK prev, char next) {
  switch (prev) {
    case TK::Int: return next == '.';                   // 1.
    case TK::Add: return next == '+';                   // ++
    case TK::Sub: return next == '-';                   // --
    case TK::Quo: return next == '*';                   // /*
    case TK::Lss: return next == '-' || next == '<';    // <- or <<
    case TK::And: return next == '&' || next == '^';    // && or &^
    default: return false;
  }
}

void Printer::P(Tok t) {
  TrackOpen();
  if (MayCombine(last_real_tok_, t.text[0])) {
    // the previous and the current token must be separated by a blank
    // otherwise they combine into a different incorrect token sequence
    // (Gordian: unless pending whitespace separates them already; and the
    // token before pending indentation counts, as in `42` `...`)
    bool separated = false;
    for (WS w : wsbuf_) separated |= w == blank || w == vtab || w == newline || w == formfeed;
    if (!separated) wsbuf_.push_back(blank);
  }
  bool implied = false;
  switch (t.kind) {
    case TK::Break:
    case TK::Continue:
    case TK::Fallthrough:
    case TK::Return:
    case TK::Inc:
    case TK::Dec:
    case TK::Rparen:
    case TK::Rbrack:
    case TK::Rbrace:
      implied = true;
      break;
    default:
      break;
  }
  last_tok_ = t.kind;
  Emit(t.text, false, implied);
}

void Printer::PrintName(const Name* x) {
  TrackOpen();
  last_tok_ = TK::Ident;
  Emit(x->value, false, true);
}

void Printer::PrintLit(const BasicLit* x) {
  TrackOpen();
  switch (x->lit_kind) {
    case LitKind::Int: last_tok_ = TK::Int; break;
    case LitKind::Float: last_tok_ = TK::Float; break;
    case LitKind::Imag: last_tok_ = TK::Imag; break;
    case LitKind::Rune: last_tok_ = TK::Char; break;
    case LitKind::String: last_tok_ = TK::String; break;
  }
  Emit(x->value, true, true);
}

// An incorrect AST: print the text as a literal.
void Printer::PrintText(std::string_view s) {
  TrackOpen();
  last_tok_ = TK::String;
  Emit(s, true, true);
}

void Printer::Emit(std::string_view data, bool is_lit, bool implied_semi) {
  last_real_tok_ = last_tok_;
  if (!pos_set_ && last_.valid() && ContainsLinebreak()) {
    // Gordian: a token without a position of its own (a node inserted by a
    // rewrite) starts a new line: first print the comments that trail the
    // line just ended, which its estimated position would otherwise pass.
    FlushTrailing();
  }
  pos_set_ = false;
  SrcPos next = pos_;  // estimated/accurate position of next item
  auto [wrote_newline, dropped_ff] = Flush(next, last_tok_);
  // intersperse extra newlines if present in the source and if they don't
  // cause extra semicolons (don't do this in flush as it will cause extra
  // newlines at the end of a file)
  if (!implied_semi_) {
    int n = std::min(next.line - pos_.line, kMaxNewlines);
    // don't exceed maxNewlines if we already wrote one
    if (wrote_newline && n == kMaxNewlines) n = kMaxNewlines - 1;
    if (n > 0) {
      WriteByte(dropped_ff ? '\f' : '\n', n);
      implied_semi = false;
    }
  }
  // the next token starts now - record its line number if requested
  if (line_ptr_ != nullptr) {
    *line_ptr_ = out_.line;
    line_ptr_ = nullptr;
  }
  WriteString(next, data, is_lit);
  implied_semi_ = implied_semi;
}

void Printer::SetPos(Pos p) {
  SrcPos q = PosFor(p);
  if (q.valid()) {
    pos_ = q;  // accurate position of next item
    pos_set_ = true;
  }
}

// Print as many newlines as necessary (but at least min newlines) to get
// to the current line. ws is printed before the first line break. If
// new_section is set, the first line break is printed as formfeed. Returns
// 0 if no line breaks were printed, returns 1 if there was exactly one
// newline printed, and returns a value > 1 if there was a formfeed or more
// than one newline printed.
int Printer::Linebreak(int line, int min, WS ws, bool new_section) {
  int n = std::max(std::min(line - pos_.line, kMaxNewlines), min);
  int nbreaks = 0;
  if (n > 0) {
    Print(ws);
    if (new_section) {
      Print(formfeed);
      n--;
      nbreaks = 2;
    }
    nbreaks += n;
    for (; n > 0; n--) Print(newline);
  }
  return nbreaks;
}

}  // namespace gordian::syntax::printer_internal
