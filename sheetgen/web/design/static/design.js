/* sheetgen design: the map workbench page. The server holds the draft; every change is one
   POST /api/op and the answer is the whole state (the map's SVG, the findings, the zones). */
"use strict";
(function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const PALETTE = JSON.parse($("#palette").textContent);
  const LETTERS = "ABCDEFGHIJKLMNPQRSTUVWXYZ";
  const ROCK_FILL = "#5a5a5a";
  let state = null;
  let mode = "paint";
  let symbol = "A";
  let item = "statue";
  let result = null;            // the last playtest result
  let busy = Promise.resolve();

  // -- talking to the server ------------------------------------------------------------------
  async function call(method, url, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(url, options);
    const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  let pending = 0;               // changes sent and not answered yet (body[data-pending]: tests wait on it)
  function queue(work) {
    pending += 1;
    document.body.dataset.pending = pending;
    // one change at a time, in order (a quick drag and a click must not cross)
    busy = busy.then(work).catch(fail).finally(() => {
      pending -= 1;
      document.body.dataset.pending = pending;
    });
    return busy;
  }

  function send(op) {
    // a refused edit changes nothing on the server: the fields show its values again (show(state))
    return queue(() => call("POST", "/api/op", op).then(show, (error) => {
      if (state) show(state);
      throw error;
    }));
  }

  function fail(error) {
    // the message stays until the designer dismisses it (or the next one replaces it)
    $("#message-text").textContent = String(error.message || error);
    $("#message").hidden = false;
  }

  function say(text) {
    $("#hint").textContent = text;
  }

  // -- drawing the state ------------------------------------------------------------------------
  function show(next) {
    state = next;
    $("#map").innerHTML = state.svg;
    const svg = $("#map svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "the map being drawn (the findings below list what the lint says of it)");
    overlay();
    $("#dirty").hidden = !state.dirty;
    $("#save").disabled = !state.dirty;
    $("#undo").disabled = state.undo === 0;
    const counts = $("#counts");
    counts.textContent = state.errors || state.warnings
      ? `${state.errors} error${state.errors === 1 ? "" : "s"}, ${state.warnings} warning${state.warnings === 1 ? "" : "s"}`
      : "valid";
    counts.className = "counts " + (state.errors ? "bad" : state.warnings ? "warn" : "good");
    $("#finding-count").textContent = state.findings.length ? `(${state.findings.length})` : "";
    document.title = `${state.dirty ? "• " : ""}${state.file} · sheetgen design`;
    findings();
    swatches();
    const stale = $("#stale");
    if (stale) stale.hidden = !result || result.revision === state.revision;
    keepFocus(zones);
    keepFocus(options);
  }

  const SVGNS = "http://www.w3.org/2000/svg";
  function rectFor(cell, cls) {
    const [x, y] = coords(cell);
    const r = document.createElementNS(SVGNS, "rect");
    const g = state.geometry;
    r.setAttribute("x", g.margin + x * g.cell);
    r.setAttribute("y", g.margin + y * g.cell);
    r.setAttribute("width", g.cell);
    r.setAttribute("height", g.cell);
    r.setAttribute("class", cls);
    return r;
  }

  function lineFor(edge, cls) {
    const [cell, side] = edge.split("-");
    const [x, y] = coords(cell);
    const g = state.geometry;
    const x0 = g.margin + x * g.cell, y0 = g.margin + y * g.cell, s = g.cell;
    const ends = { N: [x0, y0, x0 + s, y0], S: [x0, y0 + s, x0 + s, y0 + s],
                   W: [x0, y0, x0, y0 + s], E: [x0 + s, y0, x0 + s, y0 + s] }[side];
    const l = document.createElementNS(SVGNS, "line");
    ["x1", "y1", "x2", "y2"].forEach((k, i) => l.setAttribute(k, ends[i]));
    l.setAttribute("class", cls);
    return l;
  }

  function overlay() {
    const svg = $("#map svg");
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("id", "overlay");
    if (result && result.draft && $("#heat").checked) {
      for (const [cell, heat] of Object.entries(result.draft.heat)) {
        if (!heat) continue;
        const r = rectFor(cell, "heat");
        r.setAttribute("fill-opacity", (0.05 + 0.45 * heat).toFixed(3));
        g.appendChild(r);
      }
    }
    state.findings.forEach((f, i) => {
      for (const cell of f.cells) {
        const r = rectFor(cell, `finding ${f.severity}`);
        r.dataset.finding = i;
        g.appendChild(r);
      }
      for (const edge of f.edges) {
        const l = lineFor(edge, `finding ${f.severity}`);
        l.dataset.finding = i;
        g.appendChild(l);
      }
    });
    const edges = svg.querySelector("#edges");
    svg.querySelector("g").insertBefore(g, edges);
    drawCursor();
  }

  function findings() {
    const list = $("#findings");
    list.innerHTML = "";
    if (!state.findings.length) {
      const li = document.createElement("li");
      li.className = "ok";
      li.textContent = "No findings: the map is valid and playable as far as the lint can tell. Try a playtest.";
      list.appendChild(li);
    }
    state.findings.forEach((f, i) => {
      const li = document.createElement("li");
      li.className = f.severity;
      li.tabIndex = 0;
      const b = document.createElement("b");
      b.textContent = f.severity;
      const msg = document.createElement("span");
      msg.textContent = " " + f.message;
      const where = document.createElement("small");
      where.textContent = f.where.replace(/^.*\//, "");
      li.append(b, msg, where);
      li.addEventListener("click", () => focusFinding(i));
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") focusFinding(i); });
      list.appendChild(li);
    });
  }

  function focusFinding(i) {
    $$("#overlay .finding").forEach((el) => el.classList.toggle("focus", el.dataset.finding === String(i)));
    $("#map").scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  function zoneColour(letter) {
    const z = state.zones.find((zone) => zone.letter === letter);
    return z ? z.colour : "#dddddd";
  }

  function swatches() {
    const box = $("#zone-swatches");
    box.innerHTML = "";
    const letters = state.zones.map((z) => z.letter);
    if (!letters.includes(symbol) && /^[A-Z]$/.test(symbol) && symbol !== "O") letters.push(symbol);
    for (const letter of letters) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "swatch";
      b.dataset.symbol = letter;
      b.textContent = letter;
      b.style.background = zoneColour(letter);
      const z = state.zones.find((zone) => zone.letter === letter);
      b.title = z ? `zone ${letter}: ${z.name}` : `zone ${letter} (new: paint a cell to make it)`;
      box.appendChild(b);
    }
    $$(".swatch").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.symbol === symbol)));
  }

  // -- the zones and options forms -----------------------------------------------------------------
  function keepFocus(render) {
    const active = document.activeElement;
    const name = active && active.getAttribute && active.getAttribute("data-key");
    render();
    if (name) {
      const again = document.querySelector(`[data-key="${CSS.escape(name)}"]`);
      if (again) again.focus();
    }
  }

  function input(attrs) {
    const el = document.createElement(attrs.tag || "input");
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "tag") continue;
      if (k === "key") el.dataset.key = v; else el.setAttribute(k, v);
    }
    return el;
  }

  function labelled(text, el) {
    const label = document.createElement("label");
    label.append(text + " ", el);
    return label;
  }

  function zones() {
    const box = $("#zones");
    box.innerHTML = "";
    if (!state.zones.length) {
      box.textContent = "No zones yet: pick a letter in the paint palette (+ zone) and paint cells.";
      return;
    }
    for (const z of state.zones) {
      const card = document.createElement("fieldset");
      card.className = "zone";
      const legend = document.createElement("legend");
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.style.background = z.colour;
      chip.textContent = z.letter;
      legend.append(chip, ` ${z.cells} cell${z.cells === 1 ? "" : "s"}`);
      card.appendChild(legend);
      const name = input({ value: z.name, maxlength: 200, key: `zone-${z.letter}-name` });
      name.addEventListener("change", () => send({ op: "zone", letter: z.letter, name: name.value }));
      card.appendChild(labelled("Name", name));
      const kind = input({ tag: "select", key: `zone-${z.letter}-kind` });
      kind.appendChild(new Option("no round", ""));
      for (const r of PALETTE.requirements) kind.appendChild(new Option(r.name, r.name));
      kind.value = z.requirement ? z.requirement.kind : "";
      const count = input({ type: "number", min: 1, max: 99, value: z.requirement ? z.requirement.count : 1,
                            key: `zone-${z.letter}-count` });
      const requirement = () => send({ op: "zone", letter: z.letter,
        requirement: kind.value ? { kind: kind.value, count: Number(count.value) || 1 } : null });
      kind.addEventListener("change", requirement);
      count.addEventListener("change", requirement);
      const row = document.createElement("div");
      row.className = "row";
      row.append(labelled("Requirement", kind), labelled("count", count));
      card.appendChild(row);
      const events = document.createElement("div");
      events.className = "events";
      for (let face = 1; face <= 6; face++) {
        const ev = input({ list: "event-phrases", value: z.events[String(face)] || "", maxlength: 200,
                           key: `zone-${z.letter}-event-${face}`, "aria-label": `zone ${z.letter} event ${face}` });
        ev.addEventListener("change", () => {
          if (!ev.value.trim()) { ev.value = z.events[String(face)] || ""; return; }     // every face has an event
          send({ op: "zone", letter: z.letter, events: { [face]: ev.value } });
        });
        events.appendChild(labelled(String(face), ev));
      }
      card.appendChild(events);
      const colour = input({ type: "color", value: z.colour, key: `zone-${z.letter}-colour` });
      colour.addEventListener("change", () => send({ op: "zone", letter: z.letter, colour: colour.value }));
      const remove = input({ tag: "button", type: "button", class: "danger" });
      remove.textContent = `Remove zone ${z.letter}`;
      remove.addEventListener("click", () => {
        if (confirm(`Remove zone ${z.letter}? Its cells become rock.`)) send({ op: "remove_zone", letter: z.letter });
      });
      const tail = document.createElement("div");
      tail.className = "row";
      tail.append(labelled("Colour", colour), remove);
      card.appendChild(tail);
      box.appendChild(card);
    }
  }

  function options() {
    const form = $("#options");
    const o = state.options;
    for (const el of form.elements) {
      if (!el.name) continue;
      el.dataset.key = "option-" + el.name;
      if (el.name.startsWith("die-")) {
        const face = el.name.slice(4);
        el.value = o.die_table ? (o.die_table[face] || "") : "";
        el.placeholder = PALETTE.die_defaults[face];
      } else if (el.type === "checkbox") {
        const defaults = { hero_extras: o.campaign !== "strength", blank: false, coloured: true };
        el.checked = o[el.name] === null || o[el.name] === undefined ? defaults[el.name] : o[el.name];
      } else {
        el.value = o[el.name] === null || o[el.name] === undefined ? (el.name === "campaign" ? "ancient" : "") : o[el.name];
      }
    }
    if (document.activeElement !== $("#grid-columns")) $("#grid-columns").value = state.columns;
    if (document.activeElement !== $("#grid-rows")) $("#grid-rows").value = state.rows;
    const c = PALETTE.campaigns.find((row) => row.name === (o.campaign || "ancient"));
    $("#campaign-meaning").textContent = c ? c.meaning : "";
  }

  $("#options").addEventListener("change", (e) => {
    const el = e.target;
    if (!el.name) return;                   // the grid size waits for its Resize button
    if (el.name.startsWith("die-")) {
      send({ op: "set", key: "die_table", value: { [el.name.slice(4)]: el.value || PALETTE.die_defaults[el.name.slice(4)] } });
    } else if (el.type === "checkbox") {
      send({ op: "set", key: el.name, value: el.checked });
    } else {
      send({ op: "set", key: el.name, value: el.value === "" ? null : el.value });
    }
  });
  $("#options").addEventListener("submit", (e) => e.preventDefault());
  $("#resize").addEventListener("click", () => send({ op: "grid", columns: Number($("#grid-columns").value),
                                                      rows: Number($("#grid-rows").value) }));
  $("#die-ours").addEventListener("click", () => send({ op: "set", key: "die_table", value: null }));

  // -- where a pointer is on the map --------------------------------------------------------------------
  function coords(cell) {
    return [cell.charCodeAt(0) - 65, Number(cell.slice(1)) - 1];
  }
  function name(x, y) {
    return String.fromCharCode(65 + x) + (y + 1);
  }

  function mapPoint(event) {
    const svg = $("#map svg");
    const p = svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    const m = svg.getScreenCTM();
    if (!m) return null;
    const q = p.matrixTransform(m.inverse());
    const g = state.geometry;
    return { fx: (q.x - g.margin) / g.cell, fy: (q.y - g.margin) / g.cell };
  }

  function cellAt(event) {
    const pt = mapPoint(event);
    if (!pt) return null;
    const x = Math.floor(pt.fx), y = Math.floor(pt.fy);
    if (x < 0 || y < 0 || x >= state.columns || y >= state.rows) return null;
    return name(x, y);
  }

  function edgeAt(event) {
    const pt = mapPoint(event);
    if (!pt) return null;
    const cols = state.columns, rows = state.rows;
    // outside the grid (an entry arrow): the border side nearest the pointer
    const x = Math.min(cols - 1, Math.max(0, Math.floor(pt.fx)));
    const y = Math.min(rows - 1, Math.max(0, Math.floor(pt.fy)));
    if (pt.fx < 0) return [name(x, y), "W"];
    if (pt.fx >= cols) return [name(x, y), "E"];
    if (pt.fy < 0) return [name(x, y), "N"];
    if (pt.fy >= rows) return [name(x, y), "S"];
    const lx = pt.fx - x, ly = pt.fy - y;
    const sides = [["N", ly], ["S", 1 - ly], ["W", lx], ["E", 1 - lx]].sort((a, b) => a[1] - b[1]);
    if (sides[0][1] > 0.3) return null;             // the middle of a cell is no edge
    return [name(x, y), sides[0][0]];
  }

  // -- the tools ---------------------------------------------------------------------------------------
  let painting = null;
  const map = $("#map");
  map.addEventListener("pointerdown", (e) => {
    if (!state || e.button > 0) return;
    if (mode === "paint") {
      const cell = cellAt(e);
      if (!cell) return;
      painting = new Set();
      paintAt(cell);
      map.setPointerCapture(e.pointerId);
      e.preventDefault();
    }
  });
  map.addEventListener("pointermove", (e) => {
    if (painting) {
      const cell = cellAt(e);
      if (cell) paintAt(cell);
    } else if (state && mode === "edges") {
      const edge = edgeAt(e);
      $$("#edges .hover").forEach((el) => el.classList.remove("hover"));
      if (edge) {
        const el = document.getElementById(hitId(edge));
        if (el) el.classList.add("hover");
      }
    }
  });
  const finish = () => {
    if (!painting) return;
    const cells = Array.from(painting);
    painting = null;
    if (cells.length) send({ op: "paint", cells, symbol });
  };
  map.addEventListener("pointerup", finish);
  map.addEventListener("pointercancel", finish);

  function hitId([cell, side]) {
    // an inner N or W side is the cell above's S or the cell left's E (each edge has one id)
    const [x, y] = coords(cell);
    if (side === "N" && y > 0) return `edge-${name(x, y - 1)}-S`;
    if (side === "W" && x > 0) return `edge-${name(x - 1, y)}-E`;
    return `edge-${cell}-${side}`;
  }

  function paintAt(cell) {
    if (painting.has(cell)) return;
    painting.add(cell);
    const rect = document.getElementById("cell-" + cell);
    if (rect) rect.setAttribute("fill", symbol === "#" ? ROCK_FILL : symbol === "O" ? "#ffffff" : zoneColour(symbol));
  }

  map.addEventListener("click", (e) => {
    if (!state) return;
    if (mode === "edges") {
      const edge = edgeAt(e);
      if (edge) send({ op: "wall", cell: edge[0], side: edge[1] });
      else say("Click or tap close to an edge: inside the map a wall, on the border an entry arrow.");
    } else if (mode === "items" || mode === "erase") {
      const cell = cellAt(e);
      if (!cell) return;
      const now = (state.items[cell] || []).slice();
      let next;
      if (mode === "erase") next = [];
      else if (now.includes(item)) next = now.filter((n, i) => i !== now.indexOf(item));
      else if (now.length >= 4) { say("A cell prints at most four items."); return; }
      else next = now.concat([item]);
      send({ op: "items", cell, items: next });
    }
  });

  // -- the keyboard: a cursor cell on the map (issue 28) ---------------------------------------------
  // Tab to the map; the arrows move the cursor, Enter or Space applies the tool there, Shift+arrow
  // toggles the wall (or, on the border, the entry) on that side; P, W, I, E pick the tool and
  // [ ] the zone or item. What is under the cursor is said in #cursor-say (aria-live).
  let cursor = [0, 0];
  const SIDE_NAMES = { N: "north", E: "east", S: "south", W: "west" };
  const OPPOSITE = { N: "S", S: "N", E: "W", W: "E" };
  const STEP = { ArrowUp: [0, -1, "N"], ArrowDown: [0, 1, "S"], ArrowLeft: [-1, 0, "W"], ArrowRight: [1, 0, "E"] };

  function drawCursor() {
    const svg = $("#map svg");
    if (!svg || !state) return;
    cursor = [Math.min(cursor[0], state.columns - 1), Math.min(cursor[1], state.rows - 1)];
    const old = svg.querySelector("#cursor");
    if (old) old.remove();
    const r = rectFor(name(cursor[0], cursor[1]), "cursor");
    r.id = "cursor";
    svg.querySelector("g").appendChild(r);          // over everything, walls too
    map.dataset.cursor = name(cursor[0], cursor[1]);
  }

  function hasLine(prefix, cell, side) {
    const [x, y] = coords(cell);
    const d = { N: [0, -1], S: [0, 1], W: [-1, 0], E: [1, 0] }[side];
    return Boolean(document.getElementById(`${prefix}-${cell}-${side}`) ||
                   document.getElementById(`${prefix}-${name(x + d[0], y + d[1])}-${OPPOSITE[side]}`));
  }

  function describe(cell) {
    const rect = document.getElementById("cell-" + cell);
    const cls = rect ? rect.getAttribute("class") || "" : "";
    const zone = cls.match(/zone-([A-Z])/);
    let what = "rock";
    if (zone) {
      const z = state.zones.find((row) => row.letter === zone[1]);
      what = `zone ${zone[1]}${z && z.name ? ` (${z.name})` : ""}`;
    } else if (!/rock/.test(cls)) what = "the centre room";
    const parts = [`${cell}, ${what}`];
    const items = state.items[cell] || [];
    if (items.length) parts.push("items " + items.join(", "));
    const walls = ["N", "E", "S", "W"].filter((side) => hasLine("wall", cell, side));
    if (walls.length) parts.push("walls " + walls.map((w) => SIDE_NAMES[w]).join(", "));
    const entries = ["N", "E", "S", "W"].filter((side) => document.getElementById(`entry-${cell}-${side}`));
    if (entries.length) parts.push("entry " + entries.map((w) => SIDE_NAMES[w]).join(", "));
    const found = state.findings.filter((f) => f.cells.includes(cell) || f.edges.some((e) => e.startsWith(cell + "-")));
    if (found.length) parts.push(`${found.length} finding${found.length === 1 ? "" : "s"}: ${found[0].message}`);
    return parts.join("; ");
  }

  function announce() {
    $("#cursor-say").textContent = state ? describe(name(cursor[0], cursor[1])) : "";
  }

  function cycle(list, now, by) {
    const i = list.indexOf(now);
    return list[(i + by + list.length) % list.length];
  }

  function applyTool(cell) {
    if (mode === "paint") return send({ op: "paint", cells: [cell], symbol }).then(announce);
    if (mode === "items" || mode === "erase") {
      const now = (state.items[cell] || []).slice();
      let next;
      if (mode === "erase") next = [];
      else if (now.includes(item)) next = now.filter((n, i) => i !== now.indexOf(item));
      else if (now.length >= 4) { say("A cell prints at most four items."); return null; }
      else next = now.concat([item]);
      return send({ op: "items", cell, items: next }).then(announce);
    }
    say("Walls: Shift and an arrow toggle the wall on that side of the cursor cell (on the border, the entry).");
    return null;
  }

  map.addEventListener("keydown", (e) => {
    if (!state || e.target !== map || e.ctrlKey || e.metaKey || e.altKey) return;
    const cell = name(cursor[0], cursor[1]);
    if (STEP[e.key]) {
      e.preventDefault();
      const [dx, dy, side] = STEP[e.key];
      if (e.shiftKey) {
        if (mode !== "edges") setMode("edges");
        send({ op: "wall", cell, side }).then(announce);
        return;
      }
      cursor = [Math.max(0, Math.min(state.columns - 1, cursor[0] + dx)),
                Math.max(0, Math.min(state.rows - 1, cursor[1] + dy))];
      drawCursor();
      announce();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      applyTool(cell);
    } else if ({ p: "paint", w: "edges", i: "items", e: "erase" }[e.key.toLowerCase()]) {
      e.preventDefault();
      setMode({ p: "paint", w: "edges", i: "items", e: "erase" }[e.key.toLowerCase()]);
      $("#cursor-say").textContent = $("#hint").textContent;
    } else if (e.key === "[" || e.key === "]") {
      e.preventDefault();
      const by = e.key === "]" ? 1 : -1;
      if (mode === "items") {
        const names = $$(".item").map((b) => b.dataset.item);
        item = cycle(names, item, by);
        $$(".item").forEach((x) => x.setAttribute("aria-pressed", String(x.dataset.item === item)));
        $("#cursor-say").textContent = `item ${item}`;
      } else {
        symbol = cycle($$(".swatch").map((b) => b.dataset.symbol), symbol, by);
        swatches();
        if (mode !== "paint") setMode("paint");
        $("#cursor-say").textContent = `paint with ${$(`.swatch[data-symbol="${symbol}"]`).title}`;
      }
    }
  });
  map.addEventListener("focus", announce);

  const HINTS = {
    paint: "Click or drag over cells to paint them with the chosen zone, the centre (O) or rock (#).",
    edges: "Click an edge between two cells for a wall (again to remove it); a border edge for an entry arrow.",
    items: "Pick an item, then click a cell to print it there (click again to take it away; up to four a cell).",
    erase: "Click a cell to take all its items away.",
  };

  function setMode(next) {
    mode = next;
    document.body.className = "mode-" + next;
    $$(".mode").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === next)));
    $("#paint-palette").hidden = next !== "paint";
    $("#item-palette").hidden = next !== "items";
    say(next === "items" ? `${$(`.item[data-item="${item}"]`).title}. ${HINTS.items}` : HINTS[next]);
  }
  $$(".mode").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));

  $("#paint-palette").addEventListener("click", (e) => {
    const b = e.target.closest(".swatch");
    if (!b) return;
    symbol = b.dataset.symbol;
    swatches();
  });
  $("#new-zone").addEventListener("click", () => {
    const used = state.zones.map((z) => z.letter);
    const free = LETTERS.split("").find((l) => !used.includes(l));
    if (!free) { say("Every letter is a zone already."); return; }
    symbol = free;
    swatches();
    say(`Zone ${free}: paint its cells; then name it and choose its requirement and events under Zones.`);
  });
  $("#item-palette").addEventListener("click", (e) => {
    const b = e.target.closest(".item");
    if (!b) return;
    item = b.dataset.item;
    $$(".item").forEach((x) => x.setAttribute("aria-pressed", String(x === b)));
    say(b.title + ". Click a cell to print it there.");
  });

  $("#message-dismiss").addEventListener("click", () => { $("#message").hidden = true; });

  // -- tabs, save, undo --------------------------------------------------------------------------------
  $$("[role=tab]").forEach((t) => t.addEventListener("click", () => {
    $$("[role=tab]").forEach((x) => x.setAttribute("aria-selected", String(x === t)));
    $$(".tab").forEach((x) => { x.hidden = x.id !== "tab-" + t.dataset.tab; });
  }));

  function save() {
    queue(() => call("POST", "/api/save", {}).then((s) => { show(s); say(`Saved ${s.file}.`); }));
  }
  $("#save").addEventListener("click", save);
  $("#undo").addEventListener("click", () => send({ op: "undo" }));
  $("#reload").addEventListener("click", () => {
    if (!state.dirty || confirm("Read the file again? Undo brings this draft back.")) send({ op: "reload" });
  });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); save(); }
    if ((e.ctrlKey || e.metaKey) && e.key === "z" && !/INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) {
      e.preventDefault();
      send({ op: "undo" });
    }
  });
  window.addEventListener("beforeunload", (e) => {
    if (state && state.dirty) { e.preventDefault(); e.returnValue = ""; }
  });

  // -- playtest ------------------------------------------------------------------------------------------
  const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}%`);

  $("#playtest").addEventListener("click", async () => {
    try {
      await call("POST", "/api/playtest", { games: Number($("#games").value), hero: $("#hero").value || null });
    } catch (error) { fail(error); return; }
    $("#playtest").disabled = true;
    $("#progress").hidden = false;
    $("#playtest-result").textContent = "Playing…";
    poll();
  });

  async function poll() {
    let s;
    try { s = await call("GET", "/api/playtest"); } catch (error) { fail(error); return; }
    const bar = $("#progress");
    bar.max = s.total || 1;
    bar.value = s.done;
    if (s.running) { setTimeout(poll, 400); return; }
    $("#playtest").disabled = false;
    bar.hidden = true;
    if (s.error) { $("#playtest-result").textContent = ""; fail(s.error); return; }
    result = s.result;
    playtestResult();
    if (state) { $("#map").innerHTML = state.svg; overlay(); }
  }

  function playtestResult() {
    const box = $("#playtest-result");
    box.innerHTML = "";
    const d = result.draft;
    const stale = document.createElement("p");
    stale.id = "stale";
    stale.className = "message";
    stale.textContent = "The map has changed since this playtest: playtest again to see the change.";
    stale.hidden = result.revision === state.revision;
    box.appendChild(stale);
    const head = document.createElement("p");
    head.className = "win";
    head.id = "win-rate";
    head.textContent = `${result.hero.startsWith("free traits") ? "Free traits" : result.hero[0].toUpperCase() + result.hero.slice(1)}: win rate ${pct(d.win_rate)} (${d.wins}/${d.games}; 95% interval ${pct(d.win_rate_ci95[0])} to ${pct(d.win_rate_ci95[1])})`;
    box.appendChild(head);
    if (result.base) {
      const b = result.base;
      const base = document.createElement("p");
      base.id = "base-rate";
      base.textContent = `The base game (${b.name}), same hero and the same cautious player on the same dice: ` +
        `${pct(b.win_rate)} (95% interval ${pct(b.win_rate_ci95[0])} to ${pct(b.win_rate_ci95[1])}).`;
      box.appendChild(base);
    }
    const table = document.createElement("table");
    table.innerHTML = "<thead><tr><th>zone</th><th>requirement</th><th>met</th></tr></thead>";
    const body = document.createElement("tbody");
    for (const [letter, r] of Object.entries(d.requirements)) {
      const tr = document.createElement("tr");
      const kind = r.kind && r.count === 1 ? r.kind.replace(/s$/, "") : r.kind;
      [`${letter} ${r.name}`, r.kind ? `${r.count} ${kind}` : "no round", pct(r.rate)].forEach((t) => {
        const td = document.createElement("td");
        td.textContent = t;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
    table.appendChild(body);
    box.appendChild(table);
    if (result.comparison) {
      const p = document.createElement("p");
      p.id = "comparison";
      p.textContent = `Against the saved file (${pct(result.saved.win_rate)}): ${result.comparison.verdict}`;
      box.appendChild(p);
    }
    const deaths = Object.entries(d.deaths);
    if (deaths.length) {
      const p = document.createElement("p");
      p.textContent = "Deaths: " + deaths.map(([cause, n]) => `${cause} ${n}`).join(", ");
      box.appendChild(p);
    }
    // how the games ended, each with what it means (what "trapped" or "no entry" is)
    const ends = Object.entries(result.outcomes || {});
    if (ends.length) {
      const dl = document.createElement("dl");
      dl.id = "outcomes";
      dl.className = "meaning";
      for (const [end, o] of ends) {
        const dt = document.createElement("dt");
        dt.textContent = `${end}: ${o.games} game${o.games === 1 ? "" : "s"}`;
        const dd = document.createElement("dd");
        dd.textContent = o.meaning;
        dl.append(dt, dd);
      }
      box.appendChild(dl);
    }
    for (const note of d.notes || []) {
      const p = document.createElement("p");
      p.className = "meaning";
      p.textContent = note;
      box.appendChild(p);
    }
    const legend = document.createElement("p");
    legend.className = "meaning";
    legend.textContent = "The heatmap on the map: the darker a cell, the more often the hero stood there.";
    box.appendChild(legend);
  }
  $("#heat").addEventListener("change", () => { if (state) { $("#map").innerHTML = state.svg; overlay(); } });

  // -- suggest (when the game offers it) -----------------------------------------------------------------
  let suggestion = null;        // the last finished suggestion (offered, never applied unasked)
  if ($("#suggest")) {
    $("#suggest").addEventListener("click", async () => {
      const keep = $$('#tab-suggest input[name="keep"]:checked').map((el) => el.value);
      try {
        await call("POST", "/api/suggest", { keep, win_rate: Number($("#suggest-rate").value) / 100,
                                             budget: Number($("#suggest-budget").value) });
      } catch (error) { fail(error); return; }
      suggestion = null;
      $("#suggest").disabled = true;
      $("#suggest-cancel").hidden = false;
      $("#suggest-progress").hidden = false;
      $("#suggest-result").textContent = "Searching…";
      pollSuggest();
    });
    $("#suggest-cancel").addEventListener("click", () => {
      call("POST", "/api/suggest/cancel", {}).catch(fail);
      suggestDone();
      $("#suggest-result").textContent = "Cancelled: the map is as it was.";
    });
  }

  function suggestDone() {
    $("#suggest").disabled = false;
    $("#suggest-cancel").hidden = true;
    $("#suggest-progress").hidden = true;
  }

  async function pollSuggest() {
    let s;
    try { s = await call("GET", "/api/suggest"); } catch (error) { fail(error); suggestDone(); return; }
    if ($("#suggest-cancel").hidden) return;            // cancelled meanwhile
    const bar = $("#suggest-progress");
    bar.max = s.total || 1;
    bar.value = s.done;
    if (s.running) {
      $("#suggest-result").textContent = `Searching… ${s.done.toLocaleString()} of ${(s.total || 0).toLocaleString()} games`;
      setTimeout(pollSuggest, 400);
      return;
    }
    suggestDone();
    if (s.error) { $("#suggest-result").textContent = ""; fail(s.error); return; }
    if (!s.result || s.result.cancelled) { $("#suggest-result").textContent = "Cancelled."; return; }
    suggestion = s.result;
    suggestResult();
  }

  function suggestResult() {
    const box = $("#suggest-result");
    box.innerHTML = "";
    const r = suggestion;
    const head = document.createElement("p");
    head.className = "win";
    head.id = "suggest-verdict";
    head.textContent = r.met
      ? `Found: the suggested map wins ${pct(r.win_rate)} (target ${pct(r.target)}).`
      : `Not within the target: the closest map played ${pct(r.win_rate)} (target ${pct(r.target)}).`;
    box.appendChild(head);
    for (const line of r.report || []) {
      const p = document.createElement("p");
      p.className = "meaning";
      p.textContent = line;
      box.appendChild(p);
    }
    if (r.changes && r.changes.length) {
      const list = document.createElement("ol");
      for (const c of r.changes) {
        const li = document.createElement("li");
        li.textContent = c;
        list.appendChild(li);
      }
      box.appendChild(list);
    }
    if (!r.text) return;
    if (state && r.revision !== state.revision) {
      const stale = document.createElement("p");
      stale.className = "message";
      stale.textContent = "The map has changed since Suggest started: applying replaces those changes too (Undo brings them back).";
      box.appendChild(stale);
    }
    const row = document.createElement("p");
    const apply = document.createElement("button");
    apply.type = "button";
    apply.id = "suggest-apply";
    apply.className = "primary";
    apply.textContent = r.met ? "Apply to the map" : "Apply the closest map";
    apply.addEventListener("click", () => queue(() => call("POST", "/api/suggest/apply", {}).then((s) => {
      show(s);
      suggestion = null;
      box.innerHTML = "";
      const done = document.createElement("p");
      done.textContent = "Applied: the map is the suggestion now (not saved yet; Undo takes it back).";
      box.appendChild(done);
      say("The suggestion is the draft now: Save writes it, Undo takes it back.");
    })));
    const discard = document.createElement("button");
    discard.type = "button";
    discard.textContent = "Discard";
    discard.addEventListener("click", () => {
      suggestion = null;
      box.innerHTML = "";
      call("POST", "/api/suggest/cancel", {}).catch(fail);          // the server forgets it too
    });
    row.append(apply, " ", discard);
    box.appendChild(row);
  }

  // -- print ----------------------------------------------------------------------------------------------
  $("#paper").addEventListener("change", () => { $("#pdf").href = `/sheet.pdf?paper=${$("#paper").value}`; });
  $("#preview").addEventListener("click", async () => {
    const response = await fetch(`/preview.png?paper=${$("#paper").value}`);
    if (!response.ok) {
      const data = await response.json().catch(() => ({}));
      fail(data.error || response.statusText);
      return;
    }
    const img = $("#preview-image");
    if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
    img.src = URL.createObjectURL(await response.blob());
    img.hidden = false;
  });
  $("#pdf").addEventListener("click", async (e) => {
    if (state && state.errors && !state.loads) { e.preventDefault(); fail("the map has format errors: fix them to print it"); }
  });

  // -- start --------------------------------------------------------------------------------------------------
  setMode("paint");
  $(`.item[data-item="${item}"]`).setAttribute("aria-pressed", "true");
  call("GET", "/api/state").then((s) => {
    if (s.zones.length) symbol = s.zones[0].letter;
    show(s);
    document.body.dataset.ready = "1";
    if ($("#suggest")) return call("GET", "/api/suggest");
    return null;
  }).then((s) => {
    // a page opened (or reloaded) while a suggestion runs or waits: it shows that one
    if (!s) return;
    if (s.running) {
      $("#suggest").disabled = true;
      $("#suggest-cancel").hidden = false;
      $("#suggest-progress").hidden = false;
      pollSuggest();
    } else if (s.result && s.result.text) {
      suggestion = s.result;
      suggestResult();
    }
  }).catch(fail);
})();
