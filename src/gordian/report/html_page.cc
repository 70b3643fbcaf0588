// This file holds the HTML report's style sheet and script (html_page.h),
// inlined into every page so that a report needs nothing from the network.
#include "gordian/report/html_page.h"

namespace gordian::report {

const char kHtmlPageCss[] = R"CSS(
:root { --bug:#c62828; --warning:#b26a00; --info:#00796b; --fg:#1d1d1f; --dim:#6b6b70;
        --line:#e2e2e6; --bg:#fafafa; --send:#1565c0; --close:#e65100; --held:#7cb342; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
       background: var(--bg); margin: 0; padding: 16px 24px 48px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
.dim { color: var(--dim); }
.summary { margin: 2px 0 12px; }
.degraded { background: #fff8e1; border: 1px solid #ffe082; padding: 6px 10px; margin: 4px 0; }
.filters { display: flex; gap: 12px; flex-wrap: wrap; align-items: center; margin: 8px 0; }
.filters label { display: flex; gap: 6px; align-items: center; }
table.index { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
table.index th, table.index td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
table.index th { background: #f0f0f3; font-weight: 600; }
.sev { font-weight: 700; text-transform: uppercase; font-size: 11px; letter-spacing: .04em; }
.sev-bug { color: var(--bug); } .sev-warning { color: var(--warning); } .sev-info { color: var(--info); }
.finding { background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--bug);
           border-radius: 4px; margin: 18px 0; padding: 12px 16px; }
.finding.severity-warning { border-left-color: var(--warning); }
.finding.severity-info { border-left-color: var(--info); }
.status { display: inline-block; padding: 0 6px; border-radius: 8px; background: #eceff1; font-size: 12px; }
.message { margin: 6px 0 10px; }
.note { margin: -4px 0 10px; color: #57606a; font-style: italic; }
.loc { margin: 8px 0; }
.loc-head { font-weight: 600; }
pre.excerpt { background: #f6f8fa; border: 1px solid var(--line); margin: 4px 0; padding: 4px 0; overflow-x: auto; }
pre.excerpt span { display: block; padding: 0 8px; white-space: pre; }
pre.excerpt span.hit { background: #fff3cd; font-weight: 600; }
.note { font-style: italic; color: var(--dim); }
.reproduce { display: flex; gap: 8px; align-items: center; margin-top: 10px; }
.reproduce code { background: #f6f8fa; border: 1px solid var(--line); padding: 3px 6px; flex: 1; overflow-x: auto; white-space: pre; }
button { font: inherit; font-size: 12px; padding: 3px 10px; cursor: pointer; }
.timeline-wrap { overflow-x: auto; border: 1px solid var(--line); margin: 8px 0; background: #fff; }
svg.timeline text { font: 11.5px ui-monospace, Menlo, Consolas, monospace; fill: var(--fg); }
svg.timeline .lane-bg { fill: #f7f7f9; }
svg.timeline .lane-line { stroke: #d0d0d6; stroke-width: 1; }
svg.timeline .mark { stroke: #fff; stroke-width: 1.5; cursor: pointer; }
svg.timeline .mark.context { opacity: .45; }
svg.timeline .mark.primary { stroke: var(--bug); stroke-width: 3; }
svg.timeline .halo { fill: none; stroke: var(--bug); stroke-width: 2; opacity: .45; }
svg.timeline .blocked-tail { stroke: var(--bug); stroke-width: 2; stroke-dasharray: 4 3; }
svg.timeline .arrow { fill: none; stroke-width: 1.6; }
svg.timeline .arrow.send { stroke: var(--send); }
svg.timeline .arrow.close { stroke: var(--close); stroke-dasharray: 5 3; }
svg.timeline .held { fill: var(--held); opacity: .55; }
svg.timeline .stepno { fill: var(--dim); font-size: 10px; }
.legend { display: flex; gap: 14px; flex-wrap: wrap; font-size: 12px; color: var(--dim); margin-top: 4px; }
.legend i { display: inline-block; width: 18px; height: 4px; vertical-align: middle; margin-right: 4px; }
#tooltip { position: fixed; pointer-events: none; background: #263238; color: #fff; padding: 6px 8px;
           border-radius: 4px; font-size: 12px; max-width: 640px; z-index: 10; white-space: pre-wrap; display: none; }
#gordian-errors { color: var(--bug); background: #ffebee; padding: 8px; }
.run { background: #fff; border: 1px solid var(--line); border-radius: 4px; margin: 18px 0; padding: 12px 16px; }
.run-tools { margin: 6px 0; display: flex; gap: 6px; }
.run-view { position: relative; overflow: auto; height: 520px; border: 1px solid var(--line); }
.run-spacer { position: absolute; left: 0; top: 0; }
.run-canvas { position: absolute; left: 0; top: 0; }
.hidden { display: none; }
)CSS";

const char kHtmlPageScript[] = R"JS(
"use strict";
(function () {
  var errors = document.getElementById("gordian-errors");
  function reportError(msg) {
    errors.hidden = false;
    errors.textContent += msg + "\n";
  }
  window.addEventListener("error", function (e) { reportError("error: " + e.message); });
  var consoleError = console.error;
  console.error = function () {
    reportError("console.error: " + Array.prototype.join.call(arguments, " "));
    consoleError.apply(console, arguments);
  };

  // Elements are made with el(); every text goes in as textContent.
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    setAttrs(e, attrs);
    append(e, children);
    return e;
  }
  var SVG = "http://www.w3.org/2000/svg";
  function sv(tag, attrs, children) {
    var e = document.createElementNS(SVG, tag);
    setAttrs(e, attrs);
    append(e, children);
    return e;
  }
  function setAttrs(e, attrs) {
    for (var k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
  }
  function append(e, children) {
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
  }
  function pos(file, line, column) {
    if (!file) return "<unknown position>";
    return file + ":" + line + (column ? ":" + column : "");
  }
  function base(file) { var i = file.lastIndexOf("/"); return i < 0 ? file : file.slice(i + 1); }

  var tooltip;
  function showTip(ev, text) {
    tooltip.textContent = text;
    tooltip.style.display = "block";
    var x = Math.min(ev.clientX + 14, window.innerWidth - tooltip.offsetWidth - 8);
    tooltip.style.left = Math.max(4, x) + "px";
    tooltip.style.top = (ev.clientY + 14) + "px";
  }
  function hideTip() { tooltip.style.display = "none"; }

  var ROLE_COLOR = { send: "#1565c0", recv: "#2e7d32", close: "#e65100", lock: "#6a1b9a",
                     unlock: "#9575cd", add: "#00838f", done: "#00838f", wait: "#5d4037",
                     spawn: "#546e7a", select: "#3949ab", make: "#78909c", panic: "#c62828",
                     read: "#2e7d32", write: "#c62828" };

  // The arrows and spans of one interleaving, from the steps' objects:
  // a send to the receive that got its value (same object and seq), a close
  // to every later operation on that channel, a lock to the next unlock of
  // the same lock (or the end: still held).
  function relations(steps) {
    var arrows = [], spans = [];
    steps.forEach(function (s, i) {
      if (!s.object) return;
      if (s.role === "send" && s.seq) {
        steps.forEach(function (r, k) {
          if (k !== i && r.role === "recv" && r.object === s.object && r.seq === s.seq) {
            arrows.push({ from: i, to: k, cls: "send" });
          }
        });
      }
      if (s.role === "close") {
        for (var k = i + 1; k < steps.length; k++) {
          var t = steps[k];
          if (t.object === s.object && (t.role === "send" || t.role === "recv" || t.role === "close" ||
                                        t.role === "select")) {
            arrows.push({ from: i, to: k, cls: "close" });
          }
        }
      }
      if (s.role === "lock" && !s.blocked) {
        var end = -1;
        for (var m = i + 1; m < steps.length; m++) {
          if (steps[m].object === s.object && steps[m].role === "unlock") { end = m; break; }
        }
        spans.push({ from: i, to: end, g: s.g });
      }
    });
    return { arrows: arrows, spans: spans };
  }

  function laneLabel(id, gmap) {
    var g = gmap[id];
    var name = "goroutine " + id;
    if (!g) return name;
    return name + (g.function ? " " + g.function : "") + " (" + g.where + ")";
  }

  function timeline(f, fi) {
    var steps = f.steps;
    if (!steps.length) return null;
    var gmap = {};
    f.goroutines.forEach(function (g) { gmap[g.id] = g; });
    var lanes = [];
    steps.forEach(function (s) { if (lanes.indexOf(s.g) < 0) lanes.push(s.g); });
    var laneH = 56, top = 4, colW = 64, left = 24;
    var longest = 0;
    lanes.forEach(function (g) { longest = Math.max(longest, laneLabel(g, gmap).length); });
    var width = Math.max(left + colW * (steps.length + 1) + 40, longest * 7.2 + 24);
    var height = top + laneH * lanes.length + 8;
    var svg = sv("svg", { "class": "timeline", width: width, height: height,
                          "data-finding": fi, role: "img" });
    var defs = sv("defs");
    ["send", "close"].forEach(function (c) {
      defs.appendChild(sv("marker", { id: "ah-" + c + "-" + fi, viewBox: "0 0 10 10", refX: 9, refY: 5,
                                      markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
                          [sv("path", { d: "M0,0 L10,5 L0,10 z",
                                        fill: c === "send" ? "#1565c0" : "#e65100" })]));
    });
    svg.appendChild(defs);
    function x(i) { return left + colW * (i + 0.5); }
    function y(g) { return top + laneH * lanes.indexOf(g) + laneH / 2 + 4; }
    lanes.forEach(function (g, li) {
      var y0 = top + laneH * li;
      svg.appendChild(sv("rect", { "class": "lane-bg", x: 0, y: y0 + 2, width: width, height: laneH - 4,
                                   "data-lane": g }));
      svg.appendChild(sv("line", { "class": "lane-line", x1: left, x2: width - 10, y1: y(g), y2: y(g) }));
      svg.appendChild(sv("text", { x: 6, y: y0 + 14, "class": "lane-label", text: laneLabel(g, gmap) }));
    });
    var rel = relations(steps);
    rel.spans.forEach(function (sp) {
      var s = steps[sp.from];
      var x2 = sp.to >= 0 ? x(sp.to) : width - 10;
      svg.appendChild(sv("rect", { "class": "held", x: x(sp.from), y: y(sp.g) - 4, width: Math.max(2, x2 - x(sp.from)),
                                   height: 8, "data-object": s.object },
                         [sv("title", { text: "held: " + s.what + (sp.to >= 0 ? "" : " (never released)") })]));
    });
    steps.forEach(function (s, i) {
      if (s.blocked) {
        svg.appendChild(sv("line", { "class": "blocked-tail", x1: x(i), x2: width - 10, y1: y(s.g), y2: y(s.g) }));
      }
    });
    rel.arrows.forEach(function (a) {
      var sa = steps[a.from], sb = steps[a.to];
      var x1 = x(a.from), y1 = y(sa.g), x2 = x(a.to), y2 = y(sb.g);
      var d;
      if (sa.g === sb.g) {  // same lane: an arc above the marks
        d = "M" + x1 + "," + (y1 - 8) + " Q" + (x1 + x2) / 2 + "," + (y1 - 30) + " " + x2 + "," + (y2 - 9);
      } else {
        var dy = y2 > y1 ? 9 : -9;
        d = "M" + x1 + "," + (y1 + dy * 0.9) + " L" + x2 + "," + (y2 - dy);
      }
      svg.appendChild(sv("path", { "class": "arrow " + a.cls, d: d, "data-from": a.from, "data-to": a.to,
                                   "marker-end": "url(#ah-" + a.cls + "-" + fi + ")" }));
    });
    steps.forEach(function (s, i) {
      var cx = x(i), cy = y(s.g);
      var fill = ROLE_COLOR[s.role] || "#455a64";
      var tip = "#" + (i + 1) + "  goroutine " + s.g + "  " + s.what +
                (s.context ? " (context: the partner of a step)" : "") + "\n" + pos(s.file, s.line, s.column) +
                (s.function ? "  in " + s.function : "") + (s.src ? "\n" + s.line + " | " + s.src.trim() : "");
      if (s.primary) svg.appendChild(sv("circle", { "class": "halo", cx: cx, cy: cy, r: 13 }));
      var m = sv("circle", { "class": "mark" + (s.primary ? " primary" : "") + (s.blocked ? " blocked" : "") +
                                      (s.context ? " context" : ""),
                             cx: cx, cy: cy, r: s.primary ? 8 : 6.5, fill: fill, "data-step": i,
                             "data-role": s.role },
                 [sv("title", { text: tip })]);
      m.addEventListener("mousemove", function (ev) { showTip(ev, tip); });
      m.addEventListener("mouseleave", hideTip);
      svg.appendChild(m);
      svg.appendChild(sv("text", { "class": "stepno", x: cx, y: cy + 19, "text-anchor": "middle",
                                   text: String(i + 1) }));
    });
    return el("div", { "class": "timeline-wrap" }, [svg]);
  }

  function excerpt(loc) {
    var ex = loc.excerpt || {};
    if (ex.lines) {
      var pre = el("pre", { "class": "excerpt" });
      ex.lines.forEach(function (text, k) {
        var n = ex.first + k;
        pre.appendChild(el("span", { "class": n === loc.line ? "hit" : "",
                                     text: String(n).padStart(5) + " | " + text }));
      });
      return pre;
    }
    if (ex.note) return el("div", { "class": "note", text: "(" + ex.note + ")" });
    return null;
  }

  function copyButton(text) {
    var b = el("button", { type: "button", "class": "copy", text: "copy" });
    b.addEventListener("click", function () {
      function fallback() {
        var ta = el("textarea", {});
        ta.value = text;
        document.body.appendChild(ta);
        ta.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        ta.remove();
        b.textContent = ok ? "copied" : "select and copy";
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { b.textContent = "copied"; }, fallback);
      } else {
        fallback();
      }
    });
    return b;
  }

  function findingSection(f, i) {
    var sec = el("section", { "class": "finding severity-" + f.severity, id: "finding-" + i,
                              "data-kind": f.kind, "data-status": f.status, "data-test": f.test });
    var head = el("h2", {}, [
      el("span", { "class": "sev sev-" + f.severity, text: f.severity }), " ",
      el("span", { "class": "kind-title", text: f.title }), " ",
      el("span", { "class": "status", text: f.status }),
      f.primitive ? el("span", { "class": "dim", text: " [" + f.primitive + "]" }) : null,
      f.test ? el("span", { "class": "dim", text: " in " + f.test }) : null]);
    sec.appendChild(head);
    sec.appendChild(el("div", { "class": "message", text: f.message }));
    if (f.note) sec.appendChild(el("div", { "class": "note", text: "predicted, not confirmed: " + f.note }));
    if (f.reproduce) {
      sec.appendChild(el("div", { "class": "reproduce" }, [
        el("span", { text: "reproduce:" }), el("code", { "class": "reproduce-cmd", text: f.reproduce }),
        copyButton(f.reproduce)]));
    }
    if (f.steps.length) {
      sec.appendChild(el("h3", { text: "Interleaving" }));
      sec.appendChild(timeline(f, i));
      sec.appendChild(el("div", { "class": "legend" }, [
        el("span", {}, [el("i", { style: "background:#1565c0" }), "send \u2192 receive"]),
        el("span", {}, [el("i", { style: "background:#e65100" }), "close \u2192 affected operation"]),
        el("span", {}, [el("i", { style: "background:#7cb342" }), "lock held"]),
        el("span", {}, [el("i", { style: "background:#c62828" }), "failing operation (dashed: blocked forever)"]),
        el("span", {}, [el("i", { style: "background:#b0bec5" }), "faded: the partner of a step"])]));
      var ol = el("ol", { "class": "steps mono" });
      f.steps.forEach(function (s) {
        ol.appendChild(el("li", { text: "goroutine " + s.g + "  " + s.what + "  " + pos(s.file, s.line, s.column) +
                                        (s.context ? "  (context)" : "") }));
      });
      sec.appendChild(el("details", {}, [el("summary", { text: "steps as text" }), ol]));
    }
    f.locations.forEach(function (l) {
      var d = el("div", { "class": "loc" }, [
        el("div", { "class": "loc-head mono",
                    text: pos(l.file, l.line, l.column) + ": " + l.role + " (goroutine " + (l.goroutine || "?") + ")" +
                          (l.function ? " in " + l.function : "") }),
        excerpt(l)]);
      sec.appendChild(d);
    });
    if (f.other_tests.length) sec.appendChild(el("div", { "class": "dim", text: "also in: " + f.other_tests.join(", ") }));
    if (f.occurrences > 1) sec.appendChild(el("div", { "class": "dim", text: "seen " + f.occurrences + " times (reported once)" }));
    return sec;
  }

  // The whole run of a trace on a canvas (`gordian analyze --html`). The
  // canvas is the size of its viewport and draws only the operations and
  // lanes in view, so a run of 100,000 operations scrolls and zooms freely.
  function runSection(run, ri) {
    var n = run.lane.length, L = run.lanes.length;
    var sec = el("section", { "class": "run", id: "run-" + ri });
    sec.appendChild(el("h2", { text: "Whole run: " + run.name }));
    sec.appendChild(el("div", { "class": "dim", text: n + " operations of " + L + " goroutines" +
      (run.dropped ? "; " + run.dropped + " later operations not drawn" : "") +
      ". Scroll to move; ctrl+wheel or the buttons zoom; hover an operation for its source." }));
    // Partners: each send to the receive of its value; each lock to the
    // unlock that released it (the first open lock of that object, by the
    // same goroutine when there is one).
    var partner = new Int32Array(n).fill(-1);
    var spanEnd = new Int32Array(n).fill(-2);  // -2: no lock, -1: never released
    var spans = [];
    var moved = new Map(), open = new Map();
    for (var i = 0; i < n; i++) {
      var r = run.op_roles[run.op[i]], obj = run.object[i];
      if (!obj) continue;
      if ((r === "send" || r === "recv") && run.seq[i]) {
        var key = obj + ":" + run.seq[i], other = moved.get(key);
        if (other === undefined) { moved.set(key, i); continue; }
        var snd = r === "send" ? i : other, rcv = r === "send" ? other : i;
        partner[snd] = rcv;
        moved.delete(key);
      } else if (r === "lock" && !run.blocked[i]) {
        var q = open.get(obj);
        if (!q) { q = []; open.set(obj, q); }
        q.push(i);
        spanEnd[i] = -1;
        spans.push(i);
      } else if (r === "unlock") {
        var q2 = open.get(obj);
        if (!q2 || !q2.length) continue;
        var k = 0;
        for (var m = 0; m < q2.length; m++) if (run.lane[q2[m]] === run.lane[i]) { k = m; break; }
        spanEnd[q2[k]] = i;
        q2.splice(k, 1);
      }
    }
    var rowH = 18, labelW = 300, axisH = 0;
    var view = el("div", { "class": "run-view" });
    var spacer = el("div", { "class": "run-spacer" });
    var canvas = el("canvas", { "class": "run-canvas", "data-run": ri });
    view.appendChild(spacer);
    view.appendChild(canvas);
    var zoomOut = el("button", { type: "button", text: "\u2212" });
    var zoomIn = el("button", { type: "button", text: "+" });
    var fit = el("button", { type: "button", text: "whole run" });
    sec.appendChild(el("div", { "class": "run-tools" }, [zoomOut, zoomIn, fit]));
    sec.appendChild(view);
    view.style.height = Math.min(520, L * rowH + 18) + "px";
    var px = 12, ctx = null, dpr = window.devicePixelRatio || 1, W = 0, H = 0, pending = false;
    function layout() {
      W = view.clientWidth;
      H = view.clientHeight;
      spacer.style.width = (labelW + n * px + 40) + "px";
      spacer.style.height = (L * rowH + axisH) + "px";
      canvas.width = Math.max(1, Math.floor(W * dpr));
      canvas.height = Math.max(1, Math.floor(H * dpr));
      canvas.style.width = W + "px";
      canvas.style.height = H + "px";
      ctx = canvas.getContext("2d");
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    }
    function xOf(i) { return labelW + i * px - view.scrollLeft + px / 2; }
    function yOf(lane) { return lane * rowH - view.scrollTop + rowH / 2; }
    var drawn = 0;
    function draw() {
      pending = false;
      canvas.style.left = view.scrollLeft + "px";
      canvas.style.top = view.scrollTop + "px";
      ctx.clearRect(0, 0, W, H);
      var i0 = Math.max(0, Math.floor((view.scrollLeft) / px) - 1);
      var i1 = Math.min(n, Math.ceil((view.scrollLeft + W - labelW) / px) + 1);
      var r0 = Math.max(0, Math.floor(view.scrollTop / rowH)), r1 = Math.min(L, Math.ceil((view.scrollTop + H) / rowH));
      for (var r = r0; r < r1; r++) {
        if (r % 2) { ctx.fillStyle = "#f4f5f7"; ctx.fillRect(labelW, yOf(r) - rowH / 2, W, rowH); }
      }
      ctx.fillStyle = "rgba(124,179,66,0.55)";
      var spanCol = new Int32Array(r1 - r0 + 1).fill(-1);  // right end drawn so far, per lane
      for (var s = 0; s < spans.length; s++) {
        var a = spans[s], b = spanEnd[a] >= 0 ? spanEnd[a] : n;
        if (a >= i1 || b < i0) continue;
        var la = run.lane[a];
        if (la < r0 || la >= r1) continue;
        var xa = Math.max(labelW, xOf(a)), xb = Math.max(xa + 1, xOf(b));
        if (Math.floor(xb) <= spanCol[la - r0]) continue;  // inside a bar already drawn
        spanCol[la - r0] = Math.floor(xb);
        ctx.fillRect(xa, yOf(la) - 3, xb - xa, 6);
      }
      var w = Math.max(1, Math.min(px - 1, 8)), style = "";
      // Zoomed out, many operations fall on one pixel of a lane: draw one.
      var lastCol = new Int32Array(r1 - r0 + 1).fill(-1);
      for (var i = i0; i < i1; i++) {
        var ln = run.lane[i];
        if (ln < r0 || ln >= r1) continue;
        var x = xOf(i), y = yOf(ln);
        if (x < labelW) continue;
        var col = Math.floor(x);
        if (col === lastCol[ln - r0] && !run.blocked[i]) continue;
        lastCol[ln - r0] = col;
        var fill = ROLE_COLOR[run.op_roles[run.op[i]]] || "#607d8b";
        if (fill !== style) { ctx.fillStyle = fill; style = fill; }
        ctx.fillRect(x - w / 2, y - 5, w, 10);
        if (run.blocked[i]) {
          ctx.strokeStyle = "#c62828";
          ctx.lineWidth = 2;
          ctx.setLineDash([4, 3]);
          ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(W, y); ctx.stroke();
          ctx.setLineDash([]);
        }
      }
      if (px >= 3) {
        ctx.strokeStyle = "rgba(21,101,192,0.8)";
        ctx.lineWidth = 1.2;
        ctx.beginPath();
        for (var j = Math.max(0, i0 - 200); j < i1; j++) {
          var p = partner[j];
          if (p < 0 || (p < i0 && j < i0)) continue;
          ctx.moveTo(xOf(j), yOf(run.lane[j]));
          ctx.lineTo(xOf(p), yOf(run.lane[p]));
        }
        ctx.stroke();
      }
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, labelW, H);
      ctx.fillStyle = "#1d1d1f";
      ctx.font = "11px ui-monospace, Menlo, Consolas, monospace";
      ctx.textBaseline = "middle";
      for (var r2 = r0; r2 < r1; r2++) {
        ctx.save();
        ctx.beginPath(); ctx.rect(0, yOf(r2) - rowH / 2, labelW - 6, rowH); ctx.clip();
        ctx.fillText(run.lanes[r2], 4, yOf(r2));
        ctx.restore();
      }
      drawn++;
      if (drawn === 1) {
        document.documentElement.setAttribute("data-gordian-run-drawn-ms", performance.now().toFixed(1));
      }
      canvas.setAttribute("data-drawn", String(drawn));
    }
    function redraw() { if (!pending) { pending = true; requestAnimationFrame(draw); } }
    function zoom(f, cx) {
      var at = cx === undefined ? W / 2 : cx;
      var idx = (view.scrollLeft + at - labelW) / px;
      px = Math.min(60, Math.max(0.005, px * f));
      layout();
      view.scrollLeft = Math.max(0, idx * px - (at - labelW));
      draw();
    }
    view.addEventListener("scroll", redraw);
    view.addEventListener("wheel", function (ev) {
      if (!ev.ctrlKey) return;
      ev.preventDefault();
      zoom(ev.deltaY < 0 ? 1.25 : 0.8, ev.offsetX);
    }, { passive: false });
    zoomIn.addEventListener("click", function () { zoom(1.5); });
    zoomOut.addEventListener("click", function () { zoom(1 / 1.5); });
    fit.addEventListener("click", function () { px = Math.max(0.005, (W - labelW - 20) / Math.max(1, n)); layout(); view.scrollLeft = 0; draw(); });
    canvas.addEventListener("mousemove", function (ev) {
      var i = Math.floor((ev.offsetX - labelW + view.scrollLeft) / px);
      var lane = Math.floor((ev.offsetY + view.scrollTop) / rowH);
      var best = -1;
      for (var d = 0; d <= 2 && best < 0; d++) {
        [i - d, i + d].forEach(function (k) { if (best < 0 && k >= 0 && k < n && run.lane[k] === lane) best = k; });
      }
      if (best < 0 || ev.offsetX < labelW) { hideTip(); return; }
      showTip(ev, "#" + (best + 1) + "  " + run.lanes[lane] + "\n" + run.ops[run.op[best]] +
                  (run.blocked[best] ? " (never completed)" : "") + "\n" + (run.sites[run.site[best]] || "<unknown position>"));
    });
    canvas.addEventListener("mouseleave", hideTip);
    window.addEventListener("resize", function () { layout(); draw(); });
    // Drawn once in place, after the page's layout.
    sec.start = function () { layout(); draw(); };
    return sec;
  }

  function counts(findings, key) {
    var c = {};
    findings.forEach(function (f) { c[f[key]] = (c[f[key]] || 0) + 1; });
    return c;
  }

  function filterSelect(label, key, findings, onChange) {
    var c = counts(findings, key);
    var s = el("select", { "data-filter": key }, [el("option", { value: "", text: "all (" + findings.length + ")" })]);
    Object.keys(c).sort().forEach(function (v) {
      s.appendChild(el("option", { value: v, text: (v || "(no test)") + " (" + c[v] + ")" }));
    });
    s.addEventListener("change", onChange);
    return el("label", {}, [label, s]);
  }

  function render() {
    var data = JSON.parse(document.getElementById("gordian-data").textContent);
    var app = document.getElementById("app");
    app.textContent = "";
    tooltip = el("div", { id: "tooltip" });
    document.body.appendChild(tooltip);
    app.appendChild(el("h1", { text: data.title }));
    if (data.command) app.appendChild(el("div", { "class": "mono dim", text: data.command }));
    app.appendChild(el("div", { "class": "summary", text: data.summary }));
    data.degraded.forEach(function (d) {
      app.appendChild(el("div", { "class": "degraded", text: "analysis degraded: " + d }));
    });
    var findings = data.findings;
    if (findings.length) {
      renderFindings(app, findings);
    } else {
      app.appendChild(el("p", { "class": "none", text: "No findings." }));
    }
    (data.runs || []).forEach(function (run, ri) {
      var sec = runSection(run, ri);
      app.appendChild(sec);
      sec.start();
    });
  }

  function renderFindings(app, findings) {
    var shown = el("span", { "class": "dim shown-count" });
    var rows = [], sections = [];
    function apply() {
      var want = {};
      app.querySelectorAll("select[data-filter]").forEach(function (s) { want[s.dataset.filter] = s.value; });
      var n = 0;
      findings.forEach(function (f, i) {
        var ok = ["kind", "status", "test"].every(function (k) { return !want[k] || f[k] === want[k]; });
        rows[i].classList.toggle("hidden", !ok);
        sections[i].classList.toggle("hidden", !ok);
        if (ok) n++;
      });
      shown.textContent = "showing " + n + " of " + findings.length;
    }
    app.appendChild(el("div", { "class": "filters" }, [
      filterSelect("kind", "kind", findings, apply), filterSelect("status", "status", findings, apply),
      filterSelect("test", "test", findings, apply), shown]));
    var tbody = el("tbody");
    findings.forEach(function (f, i) {
      var l = f.locations[0] || {};
      var link = el("a", { href: "#finding-" + i, text: f.title });
      var tr = el("tr", { "data-kind": f.kind }, [
        el("td", { text: String(i + 1) }),
        el("td", {}, [el("span", { "class": "sev sev-" + f.severity, text: f.severity })]),
        el("td", {}, [link]), el("td", { text: f.status }), el("td", { text: f.test }),
        el("td", { "class": "mono", text: l.file ? pos(base(l.file), l.line, l.column) : "" })]);
      rows.push(tr);
      tbody.appendChild(tr);
    });
    app.appendChild(el("table", { "class": "index" }, [
      el("thead", {}, [el("tr", {}, ["#", "severity", "kind", "status", "test", "where"].map(function (h) {
        return el("th", { text: h }); }))]), tbody]));
    findings.forEach(function (f, i) {
      var s = findingSection(f, i);
      sections.push(s);
      app.appendChild(s);
    });
    // A link may carry filters: report.html#kind=goroutine-leak&status=occurred.
    if (location.hash.indexOf("=") > 0) {
      location.hash.slice(1).split("&").forEach(function (kv) {
        var p = kv.split("="), key, value;
        try {
          key = decodeURIComponent(p[0]);
          value = decodeURIComponent(p[1] || "");
        } catch (e) {
          return;  // a malformed link filters nothing
        }
        if (["kind", "status", "test"].indexOf(key) < 0) return;
        app.querySelector("select[data-filter=" + key + "]").value = value;
      });
    }
    apply();
  }

  try {
    render();
    document.documentElement.setAttribute("data-gordian-rendered", "ok");
  } catch (e) {
    reportError("error: " + (e && e.stack ? e.stack : e));
  }
})();
)JS";

}  // namespace gordian::report
