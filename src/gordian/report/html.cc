// This file implements the HTML report (html.h): the JSON blob of the
// findings, its escaping for a script element, and the page around it.
#include "gordian/report/html.h"

#include <algorithm>
#include <fstream>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gordian/report/html_page.h"
#include "gordian/report/location_json.h"
#include "gordian/report/paths.h"
#include "gordian/report/source_lines.h"
#include "gordian/report/terminal.h"
#include "gordian/report/output_file.h"
#include "gordian/util/escape.h"

namespace gordian::report {
namespace {

using nlohmann::ordered_json;

// The characters HTML reads as markup in a text node or attribute value.
constexpr util::CharEscape kHtmlEscapes[] = {
    {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"},
};

// Text for an HTML text node or attribute value.
std::string EscapeHtmlText(std::string_view s) {
  std::string out;
  util::AppendEscaped(&out, s, kHtmlEscapes);
  return out;
}

ordered_json ExcerptJson(const SourceExcerpt& ex) {
  ordered_json j = ordered_json::object();
  if (!ex.lines.empty()) {
    j["first"] = ex.first_line;
    j["lines"] = ex.lines;
  } else if (!ex.note.empty()) {
    j["note"] = ex.note;
  }
  return j;
}

// True when step s is the finding's primary operation (the one that blocks
// or panics, or the first access of a race): same goroutine, position and
// stamp as the first location.
bool IsPrimary(const Step& s, const Finding& f) {
  if (f.locations.empty()) return false;
  const Location& p = f.locations[0];
  return s.loc.goroutine == p.goroutine && s.loc.file == p.file && s.loc.line == p.line &&
         (p.tpre == 0 || s.loc.tpre == p.tpre);
}

ordered_json FindingJson(const Finding& f, const HtmlOptions& opt, SourceCache* cache) {
  ordered_json j;
  j["kind"] = KindName(f.kind);
  j["title"] = KindTitle(f.kind);
  j["description"] = KindDescription(f.kind);
  j["status"] = StatusName(f.status);
  j["severity"] = SeverityName(f.severity);
  j["primitive"] = f.primitive == Primitive::None ? "" : std::string(PrimitiveName(f.primitive));
  j["test"] = f.test;
  j["message"] = f.message;
  j["reproduce"] = f.reproduce;
  j["note"] = f.note;
  j["other_tests"] = f.other_tests;
  j["occurrences"] = f.occurrences;
  ordered_json locs = ordered_json::array();
  for (size_t i = 0; i < f.locations.size(); i++) {
    const Location& l = f.locations[i];
    ordered_json lj = LocationJson(l);
    lj["function"] = l.function;
    // Context around the primary location only, as in the terminal report.
    lj["excerpt"] =
        ExcerptJson(ExcerptOf(l, i == 0 ? opt.context_lines : 0, cache, opt.source_root));
    locs.push_back(std::move(lj));
  }
  j["locations"] = std::move(locs);
  ordered_json gs = ordered_json::array();
  for (const GoroutineInfo& g : f.goroutines) {
    gs.push_back({{"id", g.id}, {"where", GoroutineWhere(g)}, {"function", g.function}});
  }
  j["goroutines"] = std::move(gs);
  // The steps, and the context steps (partners of its communications) by
  // where they took effect among them.
  std::vector<std::pair<const Step*, bool>> all;
  for (const Step& s : f.interleaving) all.push_back({&s, false});
  if (!f.context.empty()) {
    for (const Step& s : f.context) all.push_back({&s, true});
    auto effect = [](const Step* s) { return s->loc.tpost != 0 ? s->loc.tpost : s->loc.tpre; };
    std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) {
      return effect(a.first) < effect(b.first);
    });
  }
  ordered_json steps = ordered_json::array();
  for (const auto& [sp, context] : all) {
    const Step& s = *sp;
    ordered_json sj;
    sj["g"] = s.loc.goroutine;
    sj["what"] = s.what;
    sj["file"] = s.loc.file;
    sj["line"] = s.loc.line;
    sj["column"] = s.loc.column;
    sj["role"] = RoleName(s.loc.role);
    sj["function"] = s.loc.function;
    sj["object"] = s.object;
    sj["seq"] = s.seq;
    sj["blocked"] = s.blocks;
    sj["primary"] = !context && IsPrimary(s, f);
    sj["context"] = context;
    SourceExcerpt ex = ExcerptOf(s.loc, 0, cache, opt.source_root);
    sj["src"] = ex.lines.empty() ? "" : ex.lines[0];
    steps.push_back(std::move(sj));
  }
  j["steps"] = std::move(steps);
  return j;
}

ordered_json RunJson(const RunTimeline& r) {
  return {{"name", r.name},   {"lanes", r.lanes}, {"ops", r.ops},   {"op_roles", r.op_roles},
          {"sites", r.sites}, {"lane", r.lane},   {"op", r.op},     {"site", r.site},
          {"blocked", r.blocked}, {"object", r.object}, {"seq", r.seq}, {"dropped", r.dropped}};
}

}  // namespace

std::string HtmlData(const std::vector<Finding>& findings, const HtmlOptions& opt) {
  SourceCache cache;
  ordered_json j;
  j["title"] = opt.title;
  j["command"] = opt.command;
  TerminalOptions to;
  to.show_info = true;
  to.show_unconfirmed = true;
  to.verdict = opt.verdict;
  j["summary"] = SummaryLine(findings, to);
  j["degraded"] = opt.degraded;
  ordered_json fs = ordered_json::array();
  for (const Finding& f : findings) fs.push_back(FindingJson(f, opt, &cache));
  j["findings"] = std::move(fs);
  ordered_json runs = ordered_json::array();
  if (opt.runs != nullptr) {
    for (const RunTimeline& r : *opt.runs) runs.push_back(RunJson(r));
  }
  j["runs"] = std::move(runs);
  // Text from traces and sources need not be UTF-8: replace what is not
  // (U+FFFD) instead of failing the report.
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string HtmlJsonForScript(const std::string& json) {
  std::string out;
  out.reserve(json.size() + json.size() / 16);
  for (size_t i = 0; i < json.size(); i++) {
    char c = json[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xe2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
               (json[i + 2] == '\xa8' || json[i + 2] == '\xa9')) {
      // U+2028, U+2029: line terminators to older JavaScript parsers.
      out += json[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string RenderHtml(const std::vector<Finding>& findings, const HtmlOptions& opt) {
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Nothing from the network, and no script but the page's own.
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n",
                     EscapeHtmlText(opt.title), kHtmlPageCss);
  out += "<div id=\"app\"><noscript>This report is drawn by its script: open it with "
         "JavaScript enabled.</noscript></div>\n";
  out += "<pre id=\"gordian-errors\" hidden></pre>\n";
  out += "<script type=\"application/json\" id=\"gordian-data\">";
  out += HtmlJsonForScript(HtmlData(findings, opt));
  out += "</script>\n<script>\n";
  out += kHtmlPageScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

bool WriteHtmlFile(const std::string& path, const std::vector<Finding>& findings,
                   const HtmlOptions& opt, std::string* err) {
  return WriteReportText(path, RenderHtml(findings, opt), err);
}

}  // namespace gordian::report
