/**
 * The inspector page's script, served by the handler itself (no CDN, no bundler): plain ES2020 in
 * a string. It renders only what the page shows (one page of the flow list, one flow), builds the
 * DOM with textContent (never HTML from recorded data), and follows the server's event stream.
 */
export const clientScript = String.raw`
(function () {
  "use strict";
  var base = document.body.getAttribute("data-base") || "";
  var PAGE = 50;
  var state = {
    view: "flows", page: 0, machine: "", status: "", total: 0, recorded: 0, unlisted: 0, flows: [], selected: null,
    detail: null, picked: {}, fit: true, machines: null, svgs: {}, newFlows: 0, hello: false,
  };
  var listEl = document.getElementById("flow-list");
  var viewEl = document.getElementById("view");
  var mainEl = document.getElementById("main");
  var liveEl = document.getElementById("live");
  var countEl = document.getElementById("flow-count");
  var pageInfo = document.getElementById("page-info");
  var newer = document.getElementById("newer");
  var older = document.getElementById("older");
  var machineFilter = document.getElementById("machine-filter");
  var statusFilter = document.getElementById("status-filter");
  var newFlowsButton = document.getElementById("new-flows");

  function el(tag, props, children) {
    var node = document.createElement(tag);
    if (props) for (var key in props) {
      var value = props[key];
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else if (key === "on") for (var type in value) node.addEventListener(type, value[type]);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function api(path) {
    return fetch(base + path, { headers: { accept: "application/json" }, credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    });
  }
  function svgFor(machine) {
    if (!state.svgs[machine]) {
      state.svgs[machine] = fetch(base + "/api/machines/" + encodeURIComponent(machine) + ".svg", { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .catch(function () { return null; });
    }
    return state.svgs[machine];
  }
  function parseSvg(text) {
    var doc = new DOMParser().parseFromString(text, "image/svg+xml");
    var svg = doc.documentElement;
    return svg && svg.nodeName === "svg" ? document.importNode(svg, true) : null;
  }
  function time(ms) {
    var d = new Date(ms);
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds());
  }
  function badge(status) { return el("span", { className: "badge " + status, text: status }); }
  var statusWords = { running: "an effect is in progress", waiting: "waiting for another request", succeeded: "reached a success state", ended: "reached a final state that is not a success", error: "the machine failed", stopped: "stopped before reaching a final state" };

  // ── The flow list ────────────────────────────────────────────────────────────────────────────
  function filtered() { return Boolean(state.machine || state.status); }
  function flowLink(flow) {
    var current = state.selected === flow.id;
    var title = flow.machines.join(" → ");
    var meta = el("span", { className: "meta" }, ["#" + flow.seq + " · ", el("code", { text: flow.state || "…" }), " · " + time(flow.startedAt) + " · " + flow.steps + " steps" + (flow.requests > 1 ? " · " + flow.requests + " requests" : "") + (flow.resumed === "unlinked" ? " · resumed" : "") + (flow.unlisted ? " · options only" : "")]);
    return el("li", null, [el("a", {
      className: "flow-link", href: "#/flows/" + flow.id, "data-id": flow.id, "aria-current": current ? "true" : null, tabindex: "-1",
    }, [el("span", { className: "row" }, [el("span", { className: "name", text: title }), badge(flow.status)]), meta])]);
  }
  function renderList() {
    var started = performance.now();
    var focused = document.activeElement && document.activeElement.getAttribute("data-id");
    var fragment = document.createDocumentFragment();
    state.flows.forEach(function (flow) { fragment.appendChild(flowLink(flow)); });
    listEl.replaceChildren(fragment);
    if (!state.flows.length) listEl.appendChild(el("li", { className: "hint", text: state.hello ? (filtered() ? "No flow matches these filters." : "No flow yet: sign in or out in another tab and it appears here.") : "Loading…" }));
    // A sign-in page asks for passkey options on every view (the browser's autofill): those flows wait unanswered.
    if (!filtered() && state.unlisted > 0) listEl.appendChild(el("li", { className: "hint unlisted", text: state.unlisted + (state.unlisted === 1 ? " passkey options request that went no further is" : " passkey options requests that went no further are") + " not listed (a sign-in page asks for options on every view): filter by webauthn to see " + (state.unlisted === 1 ? "it." : "them.") }));
    var links = listEl.querySelectorAll("a.flow-link");
    var tabbable = listEl.querySelector('a[aria-current="true"]') || links[0];
    if (tabbable) tabbable.setAttribute("tabindex", "0");
    if (focused) { var again = listEl.querySelector('a[data-id="' + CSS.escape(focused) + '"]'); if (again) { again.setAttribute("tabindex", "0"); if (tabbable && tabbable !== again) tabbable.setAttribute("tabindex", "-1"); again.focus(); } }
    var pages = Math.max(1, Math.ceil(state.total / PAGE));
    pageInfo.textContent = "Page " + (state.page + 1) + " of " + pages;
    newer.disabled = state.page === 0;
    older.disabled = state.page + 1 >= pages;
    countEl.textContent = "(" + state.total + (filtered() ? " of " + state.recorded : "") + ")";
    newFlowsButton.hidden = state.newFlows === 0;
    newFlowsButton.textContent = state.newFlows + " new flow" + (state.newFlows === 1 ? "" : "s") + ": show the newest";
    var took = performance.now() - started;
    document.body.setAttribute("data-list-render-ms", took.toFixed(1));
    if (!document.body.hasAttribute("data-first-render-ms") && state.hello) document.body.setAttribute("data-first-render-ms", performance.now().toFixed(1));
  }
  function query() {
    return "?offset=" + state.page * PAGE + "&limit=" + PAGE + (state.machine ? "&machine=" + encodeURIComponent(state.machine) : "") + (state.status ? "&status=" + state.status : "");
  }
  var loading = 0;
  function loadPage() {
    var ticket = ++loading;
    return api("/api/flows" + query()).then(function (page) {
      if (ticket !== loading) return;
      state.total = page.total;
      state.recorded = page.recorded;
      state.unlisted = page.unlisted || 0;
      state.flows = page.flows;
      state.newFlows = 0;
      renderList();
    }).catch(function () {});
  }
  function merge(update) {
    var updates = update.flows;
    state.recorded = update.total;
    state.unlisted = update.unlisted || 0;
    // Without a filter, a flow that has only issued passkey options leaves the list (or never joins it).
    var shown = function (flow) { return filtered() || !flow.unlisted; };
    if (state.page === 0 && !filtered()) {
      var byId = {};
      state.flows.forEach(function (flow) { byId[flow.id] = flow; });
      updates.forEach(function (flow) { if (shown(flow)) byId[flow.id] = flow; else delete byId[flow.id]; });
      var all = Object.keys(byId).map(function (id) { return byId[id]; }).sort(function (a, b) { return b.seq - a.seq; });
      state.flows = all.slice(0, PAGE);
      state.total = update.listed;
      renderList();
      return;
    }
    var known = {};
    state.flows.forEach(function (flow, index) { known[flow.id] = index; });
    var newest = state.flows.length ? state.flows[0].seq : 0;
    updates.forEach(function (flow) {
      if (known[flow.id] !== undefined) state.flows[known[flow.id]] = flow;
      else if (flow.seq > newest && shown(flow)) state.newFlows++;
    });
    if (!filtered()) state.flows = state.flows.filter(shown);
    renderList();
  }
  listEl.addEventListener("keydown", function (event) {
    var links = Array.prototype.slice.call(listEl.querySelectorAll("a.flow-link"));
    var index = links.indexOf(document.activeElement);
    var next = null;
    if (event.key === "ArrowDown") next = links[Math.min(links.length - 1, index + 1)];
    else if (event.key === "ArrowUp") next = links[Math.max(0, index - 1)];
    else if (event.key === "Home") next = links[0];
    else if (event.key === "End") next = links[links.length - 1];
    else if (event.key === "PageDown" && !older.disabled) { event.preventDefault(); older.click(); return; }
    else if (event.key === "PageUp" && !newer.disabled) { event.preventDefault(); newer.click(); return; }
    if (!next) return;
    event.preventDefault();
    links.forEach(function (link) { link.setAttribute("tabindex", link === next ? "0" : "-1"); });
    next.focus();
  });
  newer.addEventListener("click", function () { state.page = Math.max(0, state.page - 1); loadPage(); });
  older.addEventListener("click", function () { state.page++; loadPage(); });
  newFlowsButton.addEventListener("click", function () { state.page = 0; loadPage().then(function () { var first = listEl.querySelector("a.flow-link"); if (first) first.focus(); }); });
  machineFilter.addEventListener("change", function () { state.machine = machineFilter.value; state.page = 0; loadPage(); });
  statusFilter.addEventListener("change", function () { state.status = statusFilter.value; state.page = 0; loadPage(); });

  // ── Diagrams ─────────────────────────────────────────────────────────────────────────────────
  function escapeAttr(value) { return CSS.escape(value); }
  function highlight(svg, steps, upto) {
    Array.prototype.forEach.call(svg.querySelectorAll(".is-current, .is-active, .is-visited, .is-taken"), function (node) {
      node.classList.remove("is-current", "is-active", "is-visited", "is-taken");
    });
    if (upto < 0) return;
    for (var i = 0; i <= upto; i++) {
      var step = steps[i];
      step.paths.forEach(function (path) {
        var node = svg.querySelector('.sc-state[data-path="' + escapeAttr(path) + '"]');
        if (node) node.classList.add("is-visited");
      });
      var previous = i > 0 ? steps[i - 1] : null;
      if (!previous && !step.resumed) {
        Array.prototype.forEach.call(svg.querySelectorAll(".sc-initial-edge"), function (edge) {
          if (step.paths.indexOf(edge.getAttribute("data-target")) !== -1) edge.classList.add("is-taken");
        });
      }
      if (previous && !step.resumed) {
        Array.prototype.forEach.call(svg.querySelectorAll('.sc-edge[data-event="' + escapeAttr(step.event.type) + '"]'), function (edge) {
          if (previous.paths.indexOf(edge.getAttribute("data-source")) === -1) return;
          var target = edge.getAttribute("data-target");
          if (step.paths.indexOf(target) !== -1) return edge.classList.add("is-taken");
          // A pass-through state (eventless transitions only) is left in the same step: follow it.
          Array.prototype.forEach.call(svg.querySelectorAll('.sc-edge[data-event=""][data-source="' + escapeAttr(target) + '"]'), function (next) {
            if (step.paths.indexOf(next.getAttribute("data-target")) === -1) return;
            edge.classList.add("is-taken");
            next.classList.add("is-taken");
            var through = svg.querySelector('.sc-state[data-path="' + escapeAttr(target) + '"]');
            if (through) through.classList.add("is-visited");
          });
        });
      }
    }
    var shown = steps[upto];
    shown.paths.forEach(function (path, index) {
      var node = svg.querySelector('.sc-state[data-path="' + escapeAttr(path) + '"]');
      if (!node) return;
      node.classList.add("is-active");
      var isLeaf = !shown.paths.some(function (other) { return other.indexOf(path + ".") === 0; });
      if (isLeaf) node.classList.add("is-current");
    });
  }
  function figure(machine, caption) {
    var frame = el("div", { className: "diagram-frame" + (state.fit ? " fit" : ""), "data-machine": machine }, [el("p", { className: "hint", text: "Drawing " + machine + "…" })]);
    var fig = el("figure", { className: "diagram" }, [frame, el("figcaption", null, caption)]);
    return { figure: fig, frame: frame };
  }
  // The same statechart can be on the page twice: give each copy its own ids.
  var copies = 0;
  function uniquify(svg) {
    var suffix = "-" + (++copies);
    Array.prototype.forEach.call(svg.querySelectorAll("[id]"), function (node) { node.id = node.id + suffix; });
    ["aria-labelledby", "aria-describedby"].forEach(function (name) {
      var value = svg.getAttribute(name);
      if (value) svg.setAttribute(name, value.split(" ").map(function (id) { return id + suffix; }).join(" "));
    });
    Array.prototype.forEach.call(svg.querySelectorAll("[marker-end]"), function (node) {
      node.setAttribute("marker-end", node.getAttribute("marker-end").replace(/\)$/, suffix + ")"));
    });
    return svg;
  }
  function fill(frame, machine, then) {
    svgFor(machine).then(function (text) {
      var svg = text && parseSvg(text);
      if (svg) uniquify(svg);
      frame.replaceChildren(svg || el("p", { className: "hint", text: "No diagram for " + machine + " (it is not a state machine the inspector knows)." }));
      if (svg && then) then(svg);
    });
  }
  // A diagram that fits at three quarters of its size or more sits beside its timeline; a wider one
  // gets the full width, above it.
  function arrange(body) {
    var svg = body.querySelector("svg.statechart");
    if (!svg || !body.isConnected) return;
    var natural = Number(svg.getAttribute("width")) || 0;
    body.classList.toggle("side", natural > 0 && natural * 0.75 + 460 <= body.clientWidth);
  }
  window.addEventListener("resize", function () { Array.prototype.forEach.call(document.querySelectorAll(".run-body"), arrange); });
  function legend() {
    return el("span", { className: "legend", "aria-hidden": "true" }, [el("span", { className: "l-current", text: "current state" }), el("span", { className: "l-visited", text: "visited" }), el("span", { className: "l-final", text: "final state" })]);
  }
  function fitButton() {
    return el("button", { type: "button", className: "tool", "aria-pressed": state.fit ? "true" : "false", text: "Fit to width", on: { click: function () {
      state.fit = !state.fit;
      Array.prototype.forEach.call(document.querySelectorAll(".diagram-frame"), function (frame) { frame.classList.toggle("fit", state.fit); });
      Array.prototype.forEach.call(document.querySelectorAll("button.tool[aria-pressed]"), function (button) { button.setAttribute("aria-pressed", state.fit ? "true" : "false"); });
    } } });
  }

  // ── One flow ─────────────────────────────────────────────────────────────────────────────────
  function payloadOf(event) {
    var rest = {}; var any = false;
    for (var key in event) if (key !== "type") { rest[key] = event[key]; any = true; }
    if (!any) return null;
    var compact = JSON.stringify(rest);
    if (compact.length <= 60) return el("span", { className: "payload", text: compact });
    return el("details", { className: "payload" }, [el("summary", { text: "payload (" + Object.keys(rest).join(", ") + ")" }), el("pre", { className: "json", text: JSON.stringify(rest, null, 2) })]);
  }
  function eventName(step, index, run) {
    if (step.event.type === "xstate.init") return step.resumed ? "restored from the flow cookie" : (index === 0 && run.restored ? "restored" : "started");
    return step.event.type;
  }
  function runSection(flow, run, runIndex) {
    var steps = run.steps;
    var picked = state.picked[flow.id + ":" + runIndex];
    var shown = picked === undefined || picked >= steps.length ? steps.length - 1 : picked;
    var last = steps[steps.length - 1];
    var headingId = "run-" + runIndex;
    var currentText = el("strong", { text: shown >= 0 ? steps[shown].state : "none" });
    var caption = [el("span", null, [shown === steps.length - 1 ? "Current state: " : "State at step " + (shown + 1) + ": ", currentText, shown >= 0 && steps[shown].status === "done" ? " (final)" : ""]), legend(), fitButton()];
    var diagram = figure(run.machine, caption);
    fill(diagram.frame, run.machine, function (svg) {
      svg.setAttribute("aria-describedby", headingId + "-state " + svg.getAttribute("aria-describedby"));
      highlight(svg, steps, shown);
      arrange(body);
    });
    var rows = [];
    var startedAt = steps.length ? steps[0].at : run.startedAt;
    if (run.droppedSteps) rows.push(el("tr", { className: "divider" }, [el("td", { colspan: "5", text: run.droppedSteps + " earlier steps were dropped to keep the record small." })]));
    steps.forEach(function (step, index) {
      if (step.resumed) rows.push(el("tr", { className: "divider" }, [el("td", { colspan: "5", text: index === 0 && flow.resumed !== "linked" ? "Resumed from a sealed snapshot (the flow cookie): its first request was not recorded here." : "Next request: the flow was restored from its sealed snapshot (the flow cookie)." })]));
      var payload = payloadOf(step.event);
      var selected = index === shown;
      rows.push(el("tr", { className: selected ? "selected" : null }, [
        el("td", { text: String(index + 1 + run.droppedSteps) }),
        el("td", { className: "t", text: "+" + (step.at - startedAt) + " ms" }),
        el("td", null, [el("code", { text: eventName(step, index, run) }), payload]),
        el("td", null, [el("code", { text: step.state }), step.effect ? el("span", { className: "payload", text: "effect: " + step.effect }) : null, step.status !== "active" ? el("span", { className: "payload", text: step.status === "done" ? "final" : step.status }) : null]),
        el("td", null, [el("button", { type: "button", className: "step-button", "aria-pressed": selected ? "true" : "false", "aria-label": "Show step " + (index + 1) + " (" + step.state + ") on the diagram", text: "Show", "data-key": flow.id + ":" + runIndex + ":" + index, on: { click: function () {
          state.picked[flow.id + ":" + runIndex] = index === steps.length - 1 ? undefined : index;
          renderDetail();
        } } })]),
      ]));
    });
    var table = el("table", { className: "timeline" }, [
      el("caption", { text: "Timeline: " + steps.length + " snapshots" }),
      el("thead", null, [el("tr", null, [el("th", { scope: "col", text: "#" }), el("th", { scope: "col", text: "Time" }), el("th", { scope: "col", text: "Event" }), el("th", { scope: "col", text: "State" }), el("th", { scope: "col" }, [el("span", { className: "sr-only", text: "Diagram" })])])]),
      el("tbody", null, rows),
    ]);
    var context = el("details", { className: "context", open: true }, [el("summary", { text: "Context at step " + (shown + 1 + run.droppedSteps) + " (secrets redacted)" }), el("pre", { className: "json", text: shown >= 0 ? JSON.stringify(steps[shown].context, null, 2) : "" })]);
    var sub = (run.restored ? "restored from a sealed snapshot · " : "") + (last ? (last.status === "done" ? "ended in " + last.state : run.stopped ? "stopped in " + last.state : "in " + last.state) : "no snapshot yet");
    var body = el("div", { className: "run-body" }, [diagram.figure, el("div", { className: "run-data" }, [table, context])]);
    return el("section", { className: "run", "aria-labelledby": headingId }, [
      el("div", { className: "run-head" }, [el("h3", { id: headingId, text: (flow.runs.length > 1 ? runIndex + 1 + ". " : "") + run.machine }), el("span", { className: "sub", id: headingId + "-state", text: sub })]),
      body,
    ]);
  }
  function renderDetail() {
    if (state.view !== "flows") return;
    var flow = state.detail;
    var focusKey = document.activeElement && document.activeElement.getAttribute("data-key");
    if (!state.selected) {
      viewEl.replaceChildren(el("h2", { text: "Flows" }), el("p", { className: "empty", text: "Pick a flow in the list to see its statechart, with the state it is in highlighted, and its timeline of events and snapshots. Flows appear as requests reach Auth(); every token, code, verifier, nonce, state check, cookie and credential is redacted before it is recorded." }));
      return;
    }
    if (!flow || flow.id !== state.selected) {
      viewEl.replaceChildren(el("h2", { text: "Flow #" + state.selected }), el("p", { className: "empty", text: flow === false ? "This flow is no longer recorded (the oldest flows leave the ring buffer)." : "Loading…" }));
      return;
    }
    var summary = flow.summary;
    var facts = el("dl", { className: "facts" }, [
      el("div", null, [el("dt", { text: "Status" }), el("dd", null, [badge(summary.status), " " + (statusWords[summary.status] || "")])]),
      el("div", null, [el("dt", { text: "State" }), el("dd", null, [el("code", { text: summary.state })])]),
      el("div", null, [el("dt", { text: "Started" }), el("dd", { text: new Date(flow.startedAt).toLocaleString() })]),
      el("div", null, [el("dt", { text: "Requests" }), el("dd", { text: String(flow.requests) })]),
      el("div", null, [el("dt", { text: "Steps" }), el("dd", { text: String(summary.steps) })]),
    ]);
    var notes = [];
    if (flow.resumed === "linked") notes.push(el("p", { className: "note", text: "This flow spans " + flow.requests + " requests. It waited (for the provider, say) with its snapshot sealed in the flow cookie; a later request restored it and the same machine carried on from where it waited. The inspector joins the requests by the actor id the engine gives the flow in each of them, kept in server memory only as a keyed digest (the id itself is never recorded)." }));
    if (summary.unlisted) notes.push(el("p", { className: "note", text: "This flow has only issued passkey options and waits for the browser to answer the ceremony. A sign-in page asks for options on every view (the browser's passkey autofill), so the list leaves such flows out until the answer arrives; filter by webauthn to see them." }));
    if (flow.resumed === "unlinked") notes.push(el("p", { className: "note", text: "Resumed flow: this run was restored from a sealed snapshot (the flow cookie), but its first request was not recorded by this inspector: it started before the inspector did, in another process, or has left the ring buffer." }));
    viewEl.replaceChildren.apply(viewEl, [el("h2", { id: "flow-title", text: "Flow #" + flow.seq + ": " + summary.machines.join(" → ") }), facts].concat(notes, flow.runs.map(function (run, index) { return runSection(flow, run, index); })));
    if (focusKey) { var again = viewEl.querySelector('[data-key="' + CSS.escape(focusKey) + '"]'); if (again) again.focus(); }
  }
  var detailTicket = 0;
  function loadDetail(id) {
    var ticket = ++detailTicket;
    return api("/api/flows/" + encodeURIComponent(id)).then(function (flow) {
      if (ticket !== detailTicket || state.selected !== id) return;
      state.detail = flow;
      renderDetail();
    }).catch(function () {
      if (ticket !== detailTicket) return;
      state.detail = false;
      renderDetail();
    });
  }
  var refreshTimer = null;
  function refreshDetailSoon() {
    if (refreshTimer) return;
    refreshTimer = setTimeout(function () { refreshTimer = null; if (state.selected) loadDetail(state.selected); }, 150);
  }

  // ── Machines ─────────────────────────────────────────────────────────────────────────────────
  function scrollToMachine(id) {
    var section = id && document.getElementById("machine-" + id);
    if (section) section.scrollIntoView({ block: "start" });
  }
  function renderMachines(focusId) {
    if (viewEl.getAttribute("data-view") === "machines") { scrollToMachine(focusId); return; }
    viewEl.setAttribute("data-view", "machines");
    var index = el("nav", { className: "machine-index", "aria-label": "Machines" });
    viewEl.replaceChildren(el("h2", { text: "Machines" }), el("p", { className: "empty", text: "Every flow machine, drawn from its definition and laid out by ELK (the Eclipse Layout Kernel): states, nested states, transitions labelled with their event and guard, final states with a double border, and the effect each state asks the engine to perform." }), index);
    (state.machines ? Promise.resolve(state.machines) : api("/api/machines")).then(function (machines) {
      state.machines = machines;
      if (state.view !== "machines") return;
      index.appendChild(el("ul", null, machines.map(function (entry) { return el("li", null, [el("a", { href: "#/machines/" + entry.description.id, text: entry.description.id })]); })));
      machines.forEach(function (entry) {
        var machine = entry.description;
        var headingId = "machine-" + machine.id + "-title";
        var stateRows = [];
        (function walk(list) {
          list.forEach(function (s) {
            var moves = s.transitions.length ? s.transitions : [null];
            moves.forEach(function (t, i) {
              stateRows.push(el("tr", null, [
                el("td", null, i === 0 ? [el("code", { text: s.path })] : []),
                el("td", null, i === 0 && s.effect ? [el("code", { text: s.effect })] : []),
                el("td", null, t ? [el("code", { text: t.label })] : [s.type === "final" ? "final state" : "—"]),
                el("td", null, t && t.guard ? [el("code", { text: t.guard })] : []),
                el("td", null, t ? [el("code", { text: t.targets.join(", ") || "(stays)" })] : []),
              ]));
            });
            walk(s.states);
          });
        })(machine.states);
        var diagram = figure(machine.id, [fitButton()]);
        fill(diagram.frame, machine.id);
        viewEl.appendChild(el("section", { className: "machine", id: "machine-" + machine.id, "aria-labelledby": headingId }, [
          el("h3", { id: headingId, text: machine.id }),
          el("p", { text: entry.summary }),
          diagram.figure,
          el("details", null, [el("summary", { text: "States and transitions as a table" }), el("table", null, [
            el("thead", null, [el("tr", null, ["State", "Effect", "Event", "Guard", "Target"].map(function (h) { return el("th", { scope: "col", text: h }); }))]),
            el("tbody", null, stateRows),
          ])]),
        ]));
      });
      scrollToMachine(focusId);
    }).catch(function () {});
  }

  // ── Routing and the event stream ─────────────────────────────────────────────────────────────
  function route() {
    var hash = location.hash.indexOf("#/") === 0 ? location.hash : "";
    var machines = hash.indexOf("#/machines") === 0;
    state.view = machines ? "machines" : "flows";
    Array.prototype.forEach.call(document.querySelectorAll(".views a"), function (link) {
      link.setAttribute("aria-current", (link.getAttribute("href") === "#/machines") === machines ? "page" : "false");
    });
    var match = /^#\/flows\/([A-Za-z0-9_-]+)$/.exec(hash);
    var selected = machines ? null : match ? match[1] : null;
    var changed = selected !== state.selected;
    state.selected = selected;
    Array.prototype.forEach.call(listEl.querySelectorAll("a.flow-link"), function (link) {
      link.setAttribute("aria-current", link.getAttribute("data-id") === selected ? "true" : "false");
    });
    if (machines) { document.title = "Machines · authflow inspector"; renderMachines(hash.slice("#/machines/".length)); return; }
    viewEl.removeAttribute("data-view");
    document.title = selected ? "Flow #" + selected + " · authflow inspector" : "authflow inspector";
    if (changed) state.detail = null;
    renderDetail();
    if (selected) loadDetail(selected);
  }
  window.addEventListener("hashchange", function () {
    // Only "#/…" hashes are routes; others are in-page anchors, left to the browser.
    if (location.hash && location.hash.indexOf("#/") !== 0) return;
    route();
    mainEl.focus({ preventScroll: true });
  });
  document.querySelector(".skip").addEventListener("click", function (event) { event.preventDefault(); mainEl.focus(); });

  function setLive(mode, text) { liveEl.setAttribute("data-state", mode); liveEl.textContent = text; }
  function connect() {
    var source = new EventSource(base + "/api/events", { withCredentials: true });
    source.addEventListener("hello", function (message) {
      var hello = JSON.parse(message.data);
      state.hello = true;
      state.unlisted = hello.unlisted || 0;
      state.recorded = hello.total + state.unlisted;
      if (state.page === 0 && !filtered()) { state.flows = hello.flows; state.total = hello.total; state.newFlows = 0; renderList(); }
      else loadPage();
      setLive("live", "Live");
      if (state.selected) loadDetail(state.selected);
    });
    source.addEventListener("flows", function (message) {
      var update = JSON.parse(message.data);
      merge(update);
      if (state.selected && update.flows.some(function (flow) { return flow.id === state.selected; })) refreshDetailSoon();
    });
    source.onopen = function () { setLive("live", "Live"); };
    source.onerror = function () { setLive("down", source.readyState === 2 ? "Disconnected: reload the page" : "Reconnecting…"); };
  }
  renderList();
  route();
  connect();
})();
`
