// This file implements ParseRaceLog (race_log.h): a line-by-line state
// machine that only trusts lines of the shapes it knows.
#include "gordian/race/race_log.h"

#include <charconv>
#include <optional>

namespace gordian::race {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool TakePrefix(std::string_view* s, std::string_view p) {
  if (!s->starts_with(p)) return false;
  s->remove_prefix(p.size());
  return true;
}

// Digits at the start of s; false when there are none.
bool LeadingNumber(std::string_view s, uint64_t* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p != s.data();
}

// "[Previous ][Atomic ](read|write) at 0xADDR by (goroutine N|main goroutine):"
// (any capitalisation of the first letters). Sets *previous.
bool ParseAccessHeader(std::string_view s, Access* a, bool* previous) {
  *previous = TakePrefix(&s, "Previous ") || TakePrefix(&s, "previous ");
  a->atomic = TakePrefix(&s, "Atomic ") || TakePrefix(&s, "atomic ");
  if (TakePrefix(&s, "Read") || TakePrefix(&s, "read")) {
    a->write = false;
  } else if (TakePrefix(&s, "Write") || TakePrefix(&s, "write")) {
    a->write = true;
  } else {
    return false;
  }
  if (!s.starts_with(" at ") || !s.ends_with(":")) return false;
  size_t by = s.rfind(" by ");
  if (by == std::string_view::npos) return false;
  std::string_view who = s.substr(by + 4, s.size() - by - 5);
  a->race_id = 0;
  if (who == "main goroutine") {
    a->race_id = 1;
  } else if (TakePrefix(&who, "goroutine ")) {
    uint64_t id = 0;
    if (LeadingNumber(who, &id)) a->race_id = id;
  }
  return true;
}

// "Goroutine N (running) created at:" / "(finished)".
bool ParseCreationHeader(std::string_view s, uint64_t* race_id) {
  if (!TakePrefix(&s, "Goroutine ") || !s.ends_with("created at:")) return false;
  return LeadingNumber(s, race_id);
}

// "/src/pkg/x.go:11 +0x90" (the offset is optional). Needs the raw line:
// a file line is indented.
bool ParseFileLine(std::string_view raw, std::string_view s, Frame* f) {
  if (!raw.starts_with(" ") && !raw.starts_with("\t")) return false;
  if (size_t plus = s.rfind(" +0x"); plus != std::string_view::npos) s = s.substr(0, plus);
  size_t colon = s.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == s.size()) return false;
  std::string_view num = s.substr(colon + 1);
  uint32_t line = 0;
  auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), line);
  if (ec != std::errc() || p != num.data() + num.size()) return false;
  f->file = std::string(s.substr(0, colon));
  f->line = line;
  return true;
}

// "pkg.(*T).bump()": indented, no spaces, ends with ")".
bool ParseFunctionLine(std::string_view raw, std::string_view s, std::string* fn) {
  if (!raw.starts_with(" ") && !raw.starts_with("\t")) return false;
  if (s.empty() || s.back() != ')' || s.find(' ') != std::string_view::npos) return false;
  if (s.ends_with("()")) s.remove_suffix(2);
  *fn = std::string(s);
  return true;
}

class Parser {
 public:
  explicit Parser(size_t* skipped) : skipped_(skipped) {}

  void Line(std::string_view raw) {
    std::string_view s = Trim(raw);
    if (s.find("WARNING: DATA RACE") != std::string_view::npos) {
      Finish();
      block_.emplace();
      return;
    }
    if (!block_) return;
    if (s.starts_with("==================")) {
      Finish();
      return;
    }
    Access a;
    bool previous = false;
    if (ParseAccessHeader(s, &a, &previous)) {
      stack_ = nullptr;
      if (previous && !have_previous_) {
        block_->previous = a;
        have_previous_ = true;
        stack_ = &block_->previous.stack;
      } else if (!previous && !have_current_) {
        block_->current = a;
        have_current_ = true;
        stack_ = &block_->current.stack;
      }
      function_.clear();
      return;
    }
    uint64_t race_id = 0;
    if (ParseCreationHeader(s, &race_id)) {
      block_->created.push_back(Creation{race_id, {}});
      stack_ = &block_->created.back().stack;
      function_.clear();
      return;
    }
    if (s.empty()) {  // sections are separated by blank lines
      stack_ = nullptr;
      function_.clear();
      return;
    }
    if (stack_ == nullptr) return;
    Frame f;
    if (ParseFileLine(raw, s, &f)) {
      // A file line belongs to the function line just before it; one
      // without (foreign output in between) is dropped, not guessed.
      if (!function_.empty()) {
        f.function = std::move(function_);
        function_.clear();
        stack_->push_back(std::move(f));
      }
      return;
    }
    std::string fn;
    if (ParseFunctionLine(raw, s, &fn)) function_ = std::move(fn);
  }

  void Finish() {
    if (block_) {
      if (have_current_ && have_previous_) {
        out_.push_back(std::move(*block_));
      } else if (skipped_ != nullptr) {
        (*skipped_)++;
      }
    }
    block_.reset();
    have_current_ = have_previous_ = false;
    stack_ = nullptr;
    function_.clear();
  }

  std::vector<RaceReport> Take() { return std::move(out_); }

 private:
  size_t* skipped_;
  std::optional<RaceReport> block_;
  bool have_current_ = false, have_previous_ = false;
  std::vector<Frame>* stack_ = nullptr;  // the section being read
  std::string function_;                 // a function line waiting for its file line
  std::vector<RaceReport> out_;
};

}  // namespace

std::vector<RaceReport> ParseRaceLog(std::string_view text, size_t* skipped) {
  Parser p(skipped);
  while (!text.empty()) {
    size_t nl = text.find('\n');
    p.Line(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  // A block cut off after both accesses (a killed program) is still a race.
  p.Finish();
  return p.Take();
}

}  // namespace gordian::race
