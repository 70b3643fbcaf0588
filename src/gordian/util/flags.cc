// This file implements FlagSet (see flags.h).
#include "gordian/util/flags.h"

#include <charconv>

#include <fmt/format.h>

namespace gordian::util {

void FlagSet::Bool(std::string name, bool* target, std::string help) {
  flags_.push_back({std::move(name), "", std::move(help),
                    [target](std::string_view v, std::string* err) {
                      if (v == "" || v == "true" || v == "1") {
                        *target = true;
                      } else if (v == "false" || v == "0") {
                        *target = false;
                      } else {
                        *err = fmt::format("invalid boolean value {:?}", std::string(v));
                        return false;
                      }
                      return true;
                    },
                    true});
}

void FlagSet::String(std::string name, std::string* target, std::string metavar,
                     std::string help) {
  flags_.push_back({std::move(name), std::move(metavar), std::move(help),
                    [target](std::string_view v, std::string*) {
                      *target = std::string(v);
                      return true;
                    },
                    false});
}

void FlagSet::Int(std::string name, long* target, std::string metavar, std::string help) {
  flags_.push_back({std::move(name), std::move(metavar), std::move(help),
                    [target](std::string_view v, std::string* err) {
                      long x = 0;
                      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
                      if (ec != std::errc() || p != v.data() + v.size()) {
                        *err = fmt::format("invalid integer value {:?}", std::string(v));
                        return false;
                      }
                      *target = x;
                      return true;
                    },
                    false});
}

const FlagSet::Flag* FlagSet::Find(std::string_view name) const {
  for (const Flag& f : flags_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool FlagSet::Parse(const std::vector<std::string>& args,
                    std::vector<std::string>* positional, bool* help,
                    std::string* err) {
  *help = false;
  positional->clear();
  size_t i = 0;
  for (; i < args.size(); i++) {
    const std::string& a = args[i];
    if (a == "--") {
      i++;
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      if (!interspersed_) break;
      positional->push_back(a);
      continue;
    }
    std::string_view body = a;
    body.remove_prefix(a[1] == '-' ? 2 : 1);
    std::string_view name = body, value;
    bool has_value = false;
    if (auto eq = body.find('='); eq != std::string_view::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    if (name == "h" || name == "help") {
      *help = true;
      return true;
    }
    const Flag* f = Find(name);
    if (f == nullptr) {
      if (passthrough_ != nullptr) {
        // Unknown to us: hand it (and a separate value, if it looks like one)
        // to the Go tool, which knows its own flags.
        passthrough_->push_back(a);
        if (!has_value && i + 1 < args.size() && args[i + 1].rfind('-', 0) != 0 &&
            !body.starts_with("test.") && name != "v" && name != "short" &&
            name != "race" && name != "failfast" && name != "json") {
          passthrough_->push_back(args[++i]);
        }
        continue;
      }
      *err = fmt::format("{}: unknown flag -{} (see '{} --help')", command_,
                         std::string(name), command_);
      return false;
    }
    if (!f->is_bool && !has_value) {
      if (i + 1 >= args.size()) {
        *err = fmt::format("{}: flag -{} needs a value {}", command_, f->name, f->metavar);
        return false;
      }
      value = args[++i];
    }
    std::string why;
    if (!f->set(value, &why)) {
      *err = fmt::format("{}: flag -{}: {}", command_, f->name, why);
      return false;
    }
  }
  positional->insert(positional->end(), args.begin() + static_cast<long>(i), args.end());
  return true;
}

std::string FlagSet::Usage() const {
  std::string out;
  for (const Flag& f : flags_) {
    std::string left = "  -" + f.name + (f.metavar.empty() ? "" : " " + f.metavar);
    out += fmt::format("{:<24} {}\n", left, f.help);
  }
  return out;
}

}  // namespace gordian::util
