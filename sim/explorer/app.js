/* btsim explorer: the views of one self-contained page (sim/explorer/page.py).
   Data: the JSON document in #btsim-data (sim/explorer/sources.py), columnar tables.
   Plots: uPlot (vendored) for curves; the heat map (canvas) and the fairness scatter (SVG)
   are drawn here. The view lives in the URL hash (#view=unit&unit=...&vs=...). */
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("btsim-data").textContent);
  const SRC = DATA.sources || {};
  const $ = (sel, el) => (el || document).querySelector(sel);
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const COLORS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
    "#F0E442", "#999999"];
  const VERDICT_COLOR = { "under-costed": "#0072B2", "fair": "#999999",
    "over-costed": "#D55E00", "unknown": "#cccccc" };
  const LABEL_COLORS = new Map();
  function colorFor(label) {  // one colour per series label (a policy) on every plot
    if (!LABEL_COLORS.has(label)) LABEL_COLORS.set(label, COLORS[LABEL_COLORS.size %
      COLORS.length]);
    return LABEL_COLORS.get(label);
  }
  const API = window.btsimExplorer = { plots: [], renders: 0, errors: [] };

  // -- data ------------------------------------------------------------------------------
  function decode(t) {  // column name -> values (a column may be called "n")
    const out = {};
    if (!t) return out;
    for (const [k, v] of Object.entries(t.cols)) {
      out[k] = Array.isArray(v) ? v : v.codes.map((c) => (c == null ? null : v.dict[c]));
    }
    return out;
  }
  function rowsOf(t) {
    const d = decode(t), keys = Object.keys(d), r = [], n = t ? t.n : 0;
    for (let i = 0; i < n; i++) {
      const o = {};
      for (const k of keys) o[k] = d[k][i];
      r.push(o);
    }
    return r;
  }
  const memo = {};
  function cached(key, fn) { if (!(key in memo)) memo[key] = fn(); return memo[key]; }

  // the catalog: the catalog block's rows joined with every block's per-unit columns
  function unitBlocks() {
    const out = [];
    for (const name of DATA.order || Object.keys(SRC)) {
      const b = SRC[name];
      if (b.units) out.push(b.units);
      if (b.fairness && b.fairness.units) out.push(b.fairness.units);
    }
    return out;
  }
  const CATALOG = cached("catalog", () => {
    const byUnit = new Map(), specs = [], seen = new Set();
    for (const ub of unitBlocks()) {
      for (const s of ub.specs) {
        if (seen.has(s.key)) continue;
        seen.add(s.key);
        // a spec may name the column it follows ("after"), else it goes last
        let at = s.after ? specs.findIndex((x) => x.key === s.after) : -1;
        if (at >= 0) {
          while (at + 1 < specs.length && specs[at + 1].after === s.after) at++;
          specs.splice(at + 1, 0, s);
        } else specs.push(s);
      }
      for (const r of rowsOf(ub.table)) {
        const cur = byUnit.get(r.unit) || { unit: r.unit };
        Object.assign(cur, r);
        byUnit.set(r.unit, cur);
      }
    }
    return { specs, rows: [...byUnit.values()], byUnit };
  });
  const ALL_UNITS = CATALOG.rows.map((r) => r.unit).sort();

  // -- formatting ------------------------------------------------------------------------
  function fnum(v, d) {
    if (v == null || !isFinite(v)) return "–";
    return Number(v).toLocaleString("en-US", { minimumFractionDigits: d,
      maximumFractionDigits: d });
  }
  const fpct = (v) => (v == null || !isFinite(v) ? "–" : (100 * v).toFixed(1) + "%");
  function ci(v, lo, hi, d, exact, pct) {
    const f = pct ? fpct : (x) => fnum(x, d);
    if (v == null || !isFinite(v)) return "<span class='na'>–</span>";
    let s = "<span class='v'>" + f(v) + "</span>";
    if (lo != null && hi != null && isFinite(lo) && isFinite(hi)) {
      s += " <span class='ci' title='95% Monte Carlo interval'>[" + (pct ? fpct(lo) :
        fnum(lo, d)) + ", " + (pct ? fpct(hi) : fnum(hi, d)) + "]</span>";
    } else if (exact) {
      s += " <span class='ex' title='exact: a fact or an exact computation'>exact</span>";
    } else {
      s += " <span class='ex' title='no interval recorded for this number'>no CI</span>";
    }
    return s;
  }
  function cellHtml(spec, row) {
    const v = row[spec.key];
    if (spec.type === "text") return v == null ? "<span class='na'>–</span>" : esc(v);
    if (spec.lo) return ci(v, row[spec.lo], row[spec.hi], spec.digits || 0,
      spec.x ? row[spec.x] === 1 : false);
    if (v == null) return "<span class='na'>–</span>";
    return fnum(v, spec.digits || 0) + (spec.of ? "/" + spec.of : "");
  }
  function link(view, params, text) {
    const p = new URLSearchParams(Object.assign({ view }, params));
    return "<a href='#" + esc(p.toString()) + "'>" + esc(text) + "</a>";
  }

  // -- the URL hash --------------------------------------------------------------------------
  function readHash() {
    const p = new URLSearchParams(location.hash.replace(/^#/, ""));
    const st = {};
    for (const [k, v] of p) st[k] = v;
    if (!st.view) st.view = st.vs ? "matchup" : st.unit ? "unit" : "catalog";
    return st;
  }
  let STATE = readHash();
  function go(st) { location.hash = new URLSearchParams(st).toString(); }
  function setQuiet(st) {  // record view state without re-rendering
    STATE = st;
    const h = "#" + new URLSearchParams(st).toString();
    if (location.hash !== h) history.replaceState(null, "", h);
  }

  // -- tooltip ---------------------------------------------------------------------------
  const tip = document.getElementById("tip");
  function showTip(h, x, y) {
    tip.innerHTML = h;
    tip.hidden = false;
    const w = tip.offsetWidth, hh = tip.offsetHeight;
    tip.style.left = Math.min(x + 14, window.innerWidth - w - 8) + "px";
    tip.style.top = Math.min(y + 14, window.innerHeight - hh - 8) + "px";
  }
  function hideTip() { tip.hidden = true; }

  // -- assumptions -----------------------------------------------------------------------------
  function assumptionsHtml(list) {
    if (!list || !list.length) return "";
    let h = "<details class='assume' open><summary>Assumptions</summary>";
    for (const a of list) {
      h += "<div><b>" + esc(a.title) + "</b> <span class='muted'>(" + esc(a.experiment) +
        ")</span>";
      if (a.question) h += "<div class='q'>" + esc(a.question) + "</div>";
      if (a.setup) h += "<p>" + esc(a.setup) + "</p>";
      h += "<dl>" + a.run.map((kv) => "<dt>" + esc(kv[0]) + "</dt><dd>" + esc(kv[1]) +
        "</dd>").join("") + "</dl></div>";
    }
    return h + "</details>";
  }

  // -- uPlot curves ----------------------------------------------------------------------
  // series: [{label, y, lo, hi, color, dash}] over the shared x; a band per series with lo/hi
  function linePlot(el, o) {
    const data = [o.x], series = [{ label: o.xlabel }], bands = [];
    o.series.forEach((s, i) => {
      const col = s.color || COLORS[i % COLORS.length];
      data.push(s.y);
      const idx = data.length - 1;
      series.push({ label: s.label, stroke: col, width: s.width || 2, dash: s.dash,
        points: { show: o.x.length < 20, size: 4 },
        value: (u, v) => (v == null ? "–" : o.pct ? fpct(v) : fnum(v, 2)) });
      if (s.lo && s.hi && s.lo.some((v) => v != null)) {
        data.push(s.hi, s.lo);
        const fmt = (u, v) => (v == null ? "–" : o.pct ? fpct(v) : fnum(v, 2));
        series.push({ label: s.label + ": 95% high", stroke: "transparent",
          points: { show: false }, value: fmt });
        series.push({ label: s.label + ": 95% low", stroke: "transparent",
          points: { show: false }, value: fmt });
        bands.push({ series: [idx + 1, idx + 2], fill: col + "33" });
      }
    });
    const width = Math.max(320, Math.min(el.clientWidth || 640, 900));
    const opts = {
      title: o.title, width, height: o.height || 260, bands,
      scales: { x: o.logx ? { time: false, distr: 3, range: (u, mn, mx) => [mn, mx] } :
        { time: false },
        y: o.pct ? { range: [0, 1] } : { range: (u, mn, mx) => [Math.min(0, mn), mx > 0 ?
          mx * 1.05 : 1] } },
      axes: [{ label: o.xlabel }, { label: o.ylabel, size: 60,
        values: o.pct ? (u, vs) => vs.map((v) => (100 * v).toFixed(0) + "%") : undefined }],
      series, legend: { live: true },
    };
    const u = new uPlot(opts, data, el);
    API.plots.push({ id: el.id, title: o.title, series: o.series.length,
      points: o.x.length, bands: bands.length });
    return u;
  }

  // -- views -----------------------------------------------------------------------------
  const VIEWS = [["catalog", "Catalog"], ["unit", "Unit"], ["matchup", "Matchup"],
    ["heatmap", "Round robin"], ["fairness", "Fairness"], ["about", "About"]];

  function tabs() {
    $("#tabs").innerHTML = VIEWS.map(([k, l]) => "<a href='#view=" + k + "' class='" +
      (STATE.view === k ? "on" : "") + "' data-view='" + k + "'>" + l + "</a>").join("");
  }

  // catalog ------------------------------------------------------------------------------------
  function distinct(key) {
    return [...new Set(CATALOG.rows.map((r) => r[key]).filter((v) => v != null))].sort();
  }
  function catalogFilter(st) {
    const q = (st.q || "").toLowerCase().trim();
    const tmin = st.tmin ? +st.tmin : null, tmax = st.tmax ? +st.tmax : null;
    return CATALOG.rows.filter((r) => {
      if (q && !String(r.unit).toLowerCase().includes(q) &&
        !String(r.role || "").toLowerCase().includes(q)) return false;
      if (tmin != null && !(r.tons >= tmin)) return false;
      if (tmax != null && !(r.tons <= tmax)) return false;
      if (st.tech && r.tech !== st.tech) return false;
      if (st.game && !String(r.game || "").split("+").includes(st.game)) return false;
      if (st.era && r.era !== st.era) return false;
      return true;
    });
  }
  function catalogSort(rows, st) {
    const key = st.sort || "unit", desc = st.desc === "1";
    const spec = CATALOG.specs.find((s) => s.key === key) || { type: "text" };
    const num = spec.type !== "text";
    return rows.slice().sort((a, b) => {
      const x = a[key], y = b[key];
      if (x == null && y == null) return 0;
      if (x == null) return 1;  // missing last, either way
      if (y == null) return -1;
      const c = num ? x - y : String(x).localeCompare(String(y));
      return desc ? -c : c;
    });
  }
  function hiddenCols(st) {
    if (st.hide != null) return new Set(st.hide ? st.hide.split(",") : []);
    return new Set(CATALOG.specs.filter((s) => s.hidden).map((s) => s.key));
  }
  function catalogBody(st) {
    const t0 = performance.now();
    const hide = hiddenCols(st);
    const specs = CATALOG.specs.filter((s) => !hide.has(s.key));
    const rows = catalogSort(catalogFilter(st), st);
    const head = specs.map((s) => {
      const on = (st.sort || "unit") === s.key;
      return "<th data-key='" + esc(s.key) + "' title='" + esc(s.doc || "") +
        "' class='" + (s.type === "text" ? "t" : "") + (on ? " sorted" : "") + "'>" +
        esc(s.label) + (s.exact ? " <span class='exm' title='exact'>≡</span>" : "") +
        (on ? (st.desc === "1" ? " ▼" : " ▲") : "") + "</th>";
    }).join("");
    const body = rows.map((r) => "<tr data-unit='" + esc(r.unit) + "'>" + specs.map((s) =>
      "<td class='" + (s.type === "text" ? "t" : "") + "'>" + cellHtml(s, r) + "</td>")
      .join("") + "</tr>").join("");
    $("#cat-count").textContent = rows.length + " of " + CATALOG.rows.length + " units";
    $("#cat-table").innerHTML = "<thead><tr>" + head + "</tr></thead><tbody>" + body +
      "</tbody>";
    API.tableMs = performance.now() - t0;  // main-thread time of the last table update
  }
  function select(id, label, values, cur) {
    return "<label>" + label + " <select id='" + id + "'><option value=''>all</option>" +
      values.map((v) => "<option" + (String(v) === cur ? " selected" : "") + ">" + esc(v) +
        "</option>").join("") + "</select></label>";
  }
  function viewCatalog(el) {
    const st = STATE, hide = hiddenCols(st);
    el.innerHTML = "<h2>Catalog</h2><p class='muted'>Every unit of the built-in catalog " +
      "and of the results. Click a header to sort, a row to open the unit. Numbers with " +
      "<span class='ci'>[low, high]</span> carry their 95% Monte Carlo interval; ≡ marks " +
      "exact columns (facts or exact computations). " + (SRC.catalog && !SRC.catalog.mul ?
        "Role and era need the Master Unit List file (shared/data/units/mul_mechs.csv), " +
        "not found when this page was built." : "") + "</p>" +
      "<div class='controls'><label>filter <input id='q' type='search' placeholder=" +
      "'name or role' value='" + esc(st.q || "") + "'></label>" +
      "<label>tons <input id='tmin' type='number' min='0' max='200' step='5' value='" +
      esc(st.tmin || "") + "'> to <input id='tmax' type='number' min='0' max='200' " +
      "step='5' value='" + esc(st.tmax || "") + "'></label>" +
      select("tech", "tech base", distinct("tech"), st.tech) +
      select("game", "game", ["Classic", "AS"], st.game) +
      select("era", "era", distinct("era"), st.era) +
      "<details class='cols'><summary>columns</summary>" + CATALOG.specs.map((s) =>
        "<label><input type='checkbox' data-col='" + esc(s.key) + "'" +
        (hide.has(s.key) ? "" : " checked") + "> " + esc(s.label) + "</label>").join("") +
      "</details> <span id='cat-count' class='muted'></span></div>" +
      "<div class='scroll'><table id='cat-table' class='data'></table></div>";
    catalogBody(st);
    const upd = (k, v) => {
      const n = Object.assign({}, STATE);
      if (v === "" || v == null) delete n[k]; else n[k] = v;
      setQuiet(n);
      catalogBody(n);
    };
    for (const id of ["q", "tmin", "tmax", "tech", "game", "era"]) {
      $("#" + id).addEventListener("input", (e) => upd(id, e.target.value));
    }
    el.querySelectorAll("input[data-col]").forEach((cb) => cb.addEventListener("change",
      () => {
        const off = [...el.querySelectorAll("input[data-col]")].filter((c) => !c.checked)
          .map((c) => c.dataset.col);
        upd("hide", off.join(","));
        if (!off.length) { const n = Object.assign({}, STATE, { hide: "" }); setQuiet(n);
          catalogBody(n); }
      }));
    $("#cat-table").addEventListener("click", (e) => {
      const th = e.target.closest("th");
      if (th) {
        const k = th.dataset.key, n = Object.assign({}, STATE);
        n.desc = (n.sort || "unit") === k && n.desc !== "1" ? "1" : "0";
        n.sort = k;
        setQuiet(n);
        catalogBody(n);
        return;
      }
      const tr = e.target.closest("tr[data-unit]");
      if (tr) go({ view: "unit", unit: tr.dataset.unit });
    });
  }

  // unit -----------------------------------------------------------------------------------------
  function unitPicker(id, cur, label) {
    return "<label>" + label + " <input id='" + id + "' list='units-list' value='" +
      esc(cur || "") + "' size='32'></label>";
  }
  const forceRows = () => cached("forces", () => SRC.forces ? rowsOf(SRC.forces.tables
    .fights) : []);
  const FORCES = cached("forceNames", () => [...new Set(forceRows().flatMap((r) => [r.a,
    r.b]))].sort());
  const isSide = (x) => CATALOG.byUnit.has(x) || FORCES.includes(x);
  function datalist() {
    return "<datalist id='units-list'>" + ALL_UNITS.concat(FORCES).map((u) =>
      "<option value='" + esc(u) + "'>").join("") + "</datalist>";
  }
  function byKey(rows, keyFn) {
    const m = new Map();
    for (const r of rows) {
      const k = keyFn(r);
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(r);
    }
    return m;
  }
  const profRows = () => cached("prof", () => SRC.fire_profiles ?
    rowsOf(SRC.fire_profiles.tables.profiles) : []);
  const heatRows = (k) => cached("heat" + k, () => SRC.heat && SRC.heat.tables[k] ?
    rowsOf(SRC.heat.tables[k]) : []);
  const duelRows = (g) => cached("duels" + g, () => SRC[g] ? rowsOf(SRC[g].tables.duels) : []);
  const turnRows = () => cached("turns", () => SRC.classic_duels && SRC.classic_duels.tables
    .turns ? rowsOf(SRC.classic_duels.tables.turns) : []);

  function curveBlock(el, id, title, rows, xkey, groupKey, metric, o) {
    const groups = byKey(rows, (r) => r[groupKey]);
    const xs = [...new Set(rows.map((r) => r[xkey]))].sort((a, b) => a - b);
    const series = [];
    for (const [g, rs] of groups) {
      const at = new Map(rs.map((r) => [r[xkey], r]));
      const pick = (k) => xs.map((x) => (at.has(x) ? at.get(x)[k] : null));
      series.push({ label: (o.prefix || "") + g, y: pick(metric), lo: pick(metric + "_lo"),
        hi: pick(metric + "_hi"), color: colorFor(String(g)) });
    }
    const div = document.createElement("div");
    div.className = "plot";
    div.id = id;
    el.appendChild(div);
    linePlot(div, Object.assign({ title, x: xs, series }, o));
  }

  function scenarios(g, rows) {  // the block's order (short to long), else as found
    const found = new Set(rows.map((r) => r.range));
    const order = (SRC[g].scenarios || []).filter((s) => found.has(s));
    return order.concat([...found].filter((s) => !order.includes(s)));
  }
  // a scenario as read: a Classic range in hexes, an Alpha Strike range band as named
  const scenLabel = (s) => (/^\d+$/.test(s) ? s + (s === "1" ? " hex" : " hexes") :
    s === "free" ? "free movement from the start distance" : s);
  function matchupTable(unit, g) {
    const rows = duelRows(g).filter((r) => r.a === unit && r.b !== unit);
    if (!rows.length) return "";
    const scen = scenarios(g, rows);
    const byOpp = byKey(rows, (r) => r.b);
    const list = [...byOpp.entries()].map(([b, rs]) => ({ b, rs, mean: rs.reduce((s, r) =>
      s + r.score_a, 0) / rs.length })).sort((x, y) => y.mean - x.mean);
    let h = "<h3>Matchups: " + esc(SRC[g].game) + " round-robin <span class='muted'>(" +
      list.length + " opponents; P(" + esc(unit) + " wins) as side A, 95% interval)" +
      "</span></h3><div class='scroll short'><table class='data'><thead><tr><th class='t'>" +
      "opponent</th>" + scen.map((s) => "<th>P(win) " + esc(scenLabel(s)) + "</th>").join("") +
      "<th>mean score</th><th>turns (mean)</th></tr></thead><tbody>";
    for (const { b, rs, mean } of list) {
      const at = new Map(rs.map((r) => [r.range, r]));
      h += "<tr><td class='t'>" + link("matchup", { unit, vs: b }, b) + "</td>" + scen.map(
        (s) => { const r = at.get(s); return "<td>" + (r ? ci(r.p_win_a, r.p_win_a_lo,
          r.p_win_a_hi, 1, r.p_win_a_x === 1, true) : "–") + "</td>"; }).join("") +
        "<td>" + fpct(mean) + "</td><td>" + fnum(rs.reduce((s, r) => s + r.turns, 0) /
          rs.length, 1) + "</td></tr>";
    }
    return h + "</tbody></table></div><p class='note'>Score = P(win) + ½ P(draw) + ½ " +
      "P(timeout), averaged over the scenarios; turns: the duel's expected length " +
      "(Monte Carlo means).</p>";
  }

  // the BV 2 and converted-card derivations of a unit (sources.prices_source)
  function priceSteps(unit) {
    const P = SRC.prices, st = P && P.steps ? P.steps[unit] : null;
    if (!st) return "";
    const block = (id, title, lines, refused) => "<details class='steps' id='" + id +
      "'><summary>" + title + "</summary>" + (lines ? "<ol>" + lines.map((l) => "<li><code>" +
        esc(l) + "</code></li>").join("") + "</ol>" : "<p class='muted'>Not computed: " +
        esc(refused || "no record") + "</p>") + "</details>";
    const row = CATALOG.byUnit.get(unit) || {};
    return "<div class='prices'>" + block("unit-bv-steps", "BV 2 breakdown: computed " +
      fnum(row.bv_computed, 0) + " against the official " + fnum(row.bv, 0) +
      " <span class='ex'>exact</span>", st.bv, st.bv_refused) + block("unit-as-steps",
      "Alpha Strike card conversion: PV " + fnum(row.pv_computed, 0) + " against the " +
      "official " + fnum(row.pv, 0) + " <span class='ex'>exact</span>", st.as,
      st.as_refused) + (st.assumed && st.assumed.length ? "<p class='note'>Assumed: " +
        st.assumed.map(esc).join("; ") + "</p>" : "") + "<p class='note'>Computed from " +
      "the record with the default options (reference-bv.md 21-22; " +
      "reference-as-conversion.md 2); <code>btsim units bv</code> and <code>btsim units " +
      "card</code> print the same steps.</p></div>";
  }

  // tactic matrices (sources.tactics_source): A's tactic by row, B's by column
  const tacticRows = () => cached("tactics", () => SRC.tactics ?
    rowsOf(SRC.tactics.tables.cells) : []);
  function matrixHtml(rs, a, b, id) {
    const ta = [...new Set(rs.map((r) => r.tactic_a))];
    const tb = [...new Set(rs.map((r) => r.tactic_b))];
    const at = new Map(rs.map((r) => [r.tactic_a + "\u0000" + r.tactic_b, r]));
    let h = "<table class='data matrix' id='" + esc(id) + "'><thead><tr><th class='t'>" +
      esc(a) + " (A) plays ↓ / " + esc(b) + " (B) plays →</th>" + tb.map((t) => "<th>" +
        esc(t) + "</th>").join("") + "<th>A's worst</th></tr></thead><tbody>";
    let best = -1;
    const worst = ta.map((x) => Math.min(...tb.map((y) => { const r = at.get(x + "\u0000" +
      y); return r && r.score_a != null ? r.score_a : Infinity; })));
    worst.forEach((w, i) => { if (isFinite(w) && (best < 0 || w > worst[best])) best = i; });
    ta.forEach((x, i) => {
      h += "<tr" + (i === best ? " class='maximin'" : "") + "><td class='t'>" + esc(x) +
        (i === best ? " <span class='muted'>(maximin)</span>" : "") + "</td>" + tb.map((y) => {
        const r = at.get(x + "\u0000" + y);
        return "<td title='score of A = P(A wins) + ½ P(draw or timeout)'>" + (r ? "P(A wins) " +
          ci(r.p_win_a, r.p_win_a_lo, r.p_win_a_hi, 1, r.p_win_a_x === 1, true) +
          "<br><span class='muted'>score " + fpct(r.score_a) + ", " + fnum(
            r.expected_turns, 1) + " turns</span>" : "–") + "</td>";
      }).join("") + "<td>" + (isFinite(worst[i]) ? fpct(worst[i]) : "–") + "</td></tr>";
    });
    return h + "</tbody></table>";
  }
  function pairMatrices(a, b) {  // {key: [rows]} for the pairing a (A) vs b (B), per scenario
    return byKey(tacticRows().filter((r) => r.a === a && r.b === b), (r) => r.range + "\u0000" +
      r.src);
  }
  function tacticsNote() {
    return "<p class='note'>Tactic matrices: none in these results. The default suite's " +
      "round-robins record those of their most and least surprising pairings (experiment " +
      "key <code>tactic_matrices</code>); <code>btsim duel A B --tactics matrix --json " +
      "&gt; RESULTS/tactics/A_vs_B.json</code> (or an experiment whose grid sweeps " +
      "<code>tactic_a</code> and <code>tactic_b</code>) records one, and the explorer " +
      "shows it here.</p>";
  }
  function unitTactics(unit) {
    const rows = tacticRows();
    const opp = new Map();  // opponent -> pairings with a matrix (unit as A, or as B)
    for (const r of rows) {
      if (r.a === unit && r.b !== unit) opp.set(r.b, [unit, r.b]);
      else if (r.b === unit && r.a !== unit && !opp.has(r.a)) opp.set(r.a, [r.a, unit]);
    }
    let h = "<h3>Tactic matrices of the closest matchups</h3>";
    if (!opp.size) return "<div id='unit-tactics'>" + h + (rows.length ? "<p class='muted'>" +
      "No tactic matrix of " + esc(unit) + " in these results.</p>" : tacticsNote()) +
      "</div>";
    // closeness: the round-robin's mean score (nearest 50% first), else the matrix's own
    const rr = new Map();
    for (const g of ["as_duels", "classic_duels"]) {
      if (!SRC[g]) continue;
      for (const r of duelRows(g)) if (r.a === unit && !rr.has(r.b)) {
        const rs = duelRows(g).filter((x) => x.a === unit && x.b === r.b);
        rr.set(r.b, rs.reduce((s, x) => s + x.score_a, 0) / rs.length);
      }
    }
    const close = (o) => {
      if (rr.has(o)) return Math.abs(rr.get(o) - 0.5);
      const [a, b] = opp.get(o), rs = rows.filter((r) => r.a === a && r.b === b);
      return Math.abs(rs.reduce((s, r) => s + r.score_a, 0) / rs.length - 0.5);
    };
    const pick = [...opp.keys()].sort((x, y) => close(x) - close(y)).slice(0, 3);
    h += "<p class='muted'>Each cell: P(A wins) with its 95% interval (or exact) when A " +
      "plays the row's tactic and B the column's; the maximin row is A's safest tactic. " +
      "Opponents ordered by how close the round-robin score is to 50%.</p>";
    pick.forEach((o, k) => {
      const [a, b] = opp.get(o);
      for (const [key, rs] of pairMatrices(a, b)) {
        const [sc, src] = key.split("\u0000");
        h += "<h4>" + link("matchup", { unit: a, vs: b }, a + " against " + b) + (sc ?
          " <span class='muted'>(" + esc(scenLabel(sc)) + ", from " + esc(src) + ")</span>" :
          "") + "</h4>" + matrixHtml(rs, a, b, "tm-" + k);
      }
    });
    return "<div id='unit-tactics'>" + h + "</div>";
  }

  function viewUnit(el) {
    const unit = STATE.unit || (CATALOG.rows[0] || {}).unit;
    const row = CATALOG.byUnit.get(unit);
    el.innerHTML = "<h2>Unit</h2><div class='controls'>" + unitPicker("pick-unit", unit,
      "unit") + datalist() + "</div>";
    $("#pick-unit").addEventListener("change", (e) => {
      if (CATALOG.byUnit.has(e.target.value)) go({ view: "unit", unit: e.target.value });
    });
    if (!row) { el.insertAdjacentHTML("beforeend", "<p>No unit " + esc(unit) + ".</p>");
      return; }
    const facts = CATALOG.specs.filter((s) => s.key !== "unit").map((s) => "<dt title='" +
      esc(s.doc || "") + "'>" + esc(s.label) + (s.exact ? " ≡" : "") + "</dt><dd>" +
      cellHtml(s, row) + "</dd>").join("");
    el.insertAdjacentHTML("beforeend", "<h3 id='unit-name'>" + esc(unit) + "</h3><dl " +
      "class='facts'>" + facts + "</dl>" + priceSteps(unit) + "<div id='unit-plots'></div>");
    const plots = $("#unit-plots");
    const used = [];
    const prof = profRows().filter((r) => r.unit === unit);
    if (prof.length) {
      used.push(...SRC.fire_profiles.assumptions);
      const pols = SRC.fire_profiles.policies.filter((p) => prof.some((r) => r.policy === p));
      const xs = [...new Set(prof.map((r) => r.range))].sort((a, b) => a - b);
      const first = byKey(prof, (r) => r.range);
      const one = (k) => xs.map((x) => first.get(x)[0][k]);
      const series = [{ label: "max damage (all hit)", y: one("max_damage"), color: "#888888",
        dash: [4, 4] }, { label: "hit-weighted (one turn)", y: one("hit_weighted"),
        color: "#333333", width: 1.5 }];
      pols.forEach((p) => {
        const at = new Map(prof.filter((r) => r.policy === p).map((r) => [r.range, r]));
        const pick = (k) => xs.map((x) => (at.has(x) ? at.get(x)[k] : null));
        series.push({ label: "sustained '" + p + "'", y: pick("sustained"),
          lo: pick("sustained_lo"), hi: pick("sustained_hi"), color: colorFor(p) });
      });
      const div = document.createElement("div");
      div.className = "plot"; div.id = "plot-profile";
      plots.appendChild(div);
      linePlot(div, { title: "Damage versus range", xlabel: "range (hexes)",
        ylabel: "damage per turn", x: xs, series });
      plots.insertAdjacentHTML("beforeend", "<p class='note'>Max damage and hit-weighted " +
        "are exact; sustained (10 turns, heat carried) is exact where the Markov chain gives " +
        "it, else the Monte Carlo mean with its 95% band.</p>");
    }
    const ch = heatRows("classic").filter((r) => r.unit === unit);
    if (ch.length) {
      used.push(SRC.heat.assumptions.find((a) => a.experiment && ch.length) || {});
      curveBlock(plots, "plot-heat", "Mean heat per turn (Classic weapon fire)", ch, "turn",
        "policy", "mean_heat", { xlabel: "turn", ylabel: "heat", prefix: "policy " });
      curveBlock(plots, "plot-shutdown", "P(shut down by turn)", ch, "turn", "policy",
        "p_shutdown_by", { xlabel: "turn", ylabel: "P", pct: true, prefix: "policy " });
    }
    const ah = heatRows("alphastrike").filter((r) => r.unit === unit);
    if (ah.length) {
      const conds = [...new Set(ah.map((r) => "water " + r.water + ", incoming " +
        r.incoming))];
      const cur = STATE.cond && conds.includes(STATE.cond) ? STATE.cond : conds[0];
      plots.insertAdjacentHTML("beforeend", "<div class='controls'><label>Alpha Strike " +
        "heat, conditions <select id='cond'>" + conds.map((c) => "<option" + (c === cur ?
          " selected" : "") + ">" + esc(c) + "</option>").join("") + "</select></label></div>");
      $("#cond").addEventListener("change", (e) => go(Object.assign({}, STATE,
        { cond: e.target.value })));
      const sub = ah.filter((r) => "water " + r.water + ", incoming " + r.incoming === cur);
      curveBlock(plots, "plot-as-heat", "Mean heat (Alpha Strike, " + cur + ")", sub, "turn",
        "policy", "mean_heat", { xlabel: "turn", ylabel: "heat", prefix: "OV " });
      curveBlock(plots, "plot-as-shutdown", "P(shut down by turn) (Alpha Strike)", sub,
        "turn", "policy", "p_shutdown_by", { xlabel: "turn", ylabel: "P", pct: true,
          prefix: "OV " });
    }
    if (SRC.heat) {
      for (const a of SRC.heat.assumptions) {
        if ((a.experiment && ch.length && /fire/.test(a.experiment)) ||
          (ah.length && !/fire/.test(a.experiment))) used.push(a);
      }
    }
    let mt = "";
    for (const g of ["as_duels", "classic_duels"]) {
      const t = SRC[g] ? matchupTable(unit, g) : "";
      if (t) { mt += t; used.push(...SRC[g].assumptions); }
    }
    plots.insertAdjacentHTML("beforeend", mt || "<p class='muted'>No duel results for " +
      "this unit.</p>");
    plots.insertAdjacentHTML("beforeend", unitTactics(unit));
    if (SRC.tactics) used.push(...SRC.tactics.assumptions);
    if (!prof.length && !ch.length && !ah.length) {
      plots.insertAdjacentHTML("afterbegin", "<p class='muted'>No damage or heat curves " +
        "in these results for this unit.</p>");
    }
    el.insertAdjacentHTML("beforeend", assumptionsHtml(used.filter((a) => a && a.title)
      .filter((a, i, arr) => arr.findIndex((b) => b.experiment === a.experiment) === i)));
  }

  // matchup --------------------------------------------------------------------------------------
  const causeRows = () => cached("causes", () => SRC.classic_duels && SRC.classic_duels
    .tables.causes ? rowsOf(SRC.classic_duels.tables.causes) : []);
  function forceList() {  // every force fight of the results, a link each
    const rs = forceRows();
    if (!rs.length) return "";
    const pairs = [...new Map(rs.map((r) => [r.a + "\u0000" + r.b, r])).values()];
    return "<details class='forces' id='force-list'" + (pairs.length <= 12 ? " open" : "") +
      "><summary>Force fights in these results (" + pairs.length + ")</summary><ul>" +
      pairs.map((r) => "<li>" + link("matchup", { unit: r.a, vs: r.b }, r.a + "  against  " +
        r.b) + "</li>").join("") + "</ul></details>";
  }
  function viewMatchup(el) {
    const a = STATE.unit || "", b = STATE.vs || "";
    el.innerHTML = "<h2>Matchup</h2><div class='controls'>" + unitPicker("pick-a", a, "A") +
      unitPicker("pick-b", b, "against B") + datalist() + "</div><div id='mu'></div>";
    const upd = () => {
      const x = $("#pick-a").value, y = $("#pick-b").value;
      if (isSide(x) && isSide(y)) go({ view: "matchup", unit: x, vs: y });
    };
    $("#pick-a").addEventListener("change", upd);
    $("#pick-b").addEventListener("change", upd);
    const mu = $("#mu");
    if (!a || !b) {
      mu.innerHTML = "<p class='muted'>Pick two units" + (FORCES.length ? " or forces" : "") +
        ".</p>" + forceList();
      return;
    }
    let any = false;
    const used = [];
    const fr = forceRows().filter((r) => (r.a === a && r.b === b) || (r.a === b && r.b === a));
    if (fr.length) {
      any = true;
      used.push(...SRC.forces.assumptions);
      mu.insertAdjacentHTML("beforeend", "<h3>Force fight: " + esc(a) + " (A) against " +
        esc(b) + " (B)</h3><table class='data' id='mu-forces'><thead><tr><th>scenario</th>" +
        "<th class='t'>side A</th><th>P(A wins)</th><th>P(B wins)</th><th>P(draw)</th>" +
        "<th>P(timeout)</th><th>turns</th><th>trials</th><th class='t'>experiment</th></tr>" +
        "</thead><tbody>" + fr.map((r) => "<tr><td>" + esc(scenLabel(r.range)) + "</td><td " +
          "class='t'>" + esc(r.a === a ? "A: " + a : "B: " + b + " seated as A") + "</td><td>" +
          ci(r.p_win_a, r.p_win_a_lo, r.p_win_a_hi, 1, r.p_win_a_x === 1, true) + "</td><td>" +
          ci(r.p_win_b, r.p_win_b_lo, r.p_win_b_hi, 1, r.p_win_b_x === 1, true) + "</td><td>" +
          fpct(r.p_draw) + "</td><td>" + fpct(r.p_timeout) + "</td><td>" + ci(r.expected_turns,
            r.expected_turns_lo, r.expected_turns_hi, 1, r.expected_turns_x === 1) +
          "</td><td>" + fnum(r.trials, 0) + "</td><td class='t'>" + esc(r.src) + "</td></tr>")
          .join("") + "</tbody></table><p class='note'>Side A and side B as the run seated " +
          "them (P(A wins) is the chance side A's units destroy side B's first).</p>");
    }
    const tm = pairMatrices(a, b);
    if (tm.size) {
      any = true;
      let h = "<h3>Per tactic: " + esc(a) + " (A) against " + esc(b) + " (B)</h3>";
      let k = 0;
      for (const [key, rs] of tm) {
        const [sc, src] = key.split("\u0000");
        h += "<p class='muted'>" + esc(scenLabel(sc || "")) + " (from " + esc(src) + ")</p>" +
          matrixHtml(rs, a, b, "mu-tactics-" + k++);
      }
      mu.insertAdjacentHTML("beforeend", h);
      used.push(...SRC.tactics.assumptions);
    }
    for (const g of ["as_duels", "classic_duels"]) {
      if (!SRC[g]) continue;
      const rows = duelRows(g);
      const rank = new Map(scenarios(g, rows).map((s, i) => [s, i]));
      const bySc = (x, y) => rank.get(x.range) - rank.get(y.range);
      const ab = rows.filter((r) => r.a === a && r.b === b).sort(bySc);
      const ba = rows.filter((r) => r.a === b && r.b === a).sort(bySc);
      if (!ab.length && !ba.length) continue;
      any = true;
      used.push(...SRC[g].assumptions);
      const line = (r, flip) => "<td>" + esc(scenLabel(r.range)) + "</td><td>" + (flip ? "B" : "A") +
        "</td><td>" + (flip ? ci(r.p_win_b, r.p_win_b_lo, r.p_win_b_hi, 1, r.p_win_b_x === 1, true) :
          ci(r.p_win_a, r.p_win_a_lo, r.p_win_a_hi, 1, r.p_win_a_x === 1, true)) + "</td><td>" +
        (flip ? ci(r.p_win_a, r.p_win_a_lo, r.p_win_a_hi, 1, r.p_win_a_x === 1, true) :
          ci(r.p_win_b, r.p_win_b_lo, r.p_win_b_hi, 1, r.p_win_b_x === 1, true)) + "</td><td>" +
        fpct(r.p_draw) + "</td><td>" + fpct(r.p_timeout) + "</td><td>" + fnum(r.turns, 1) +
        "</td><td>" + fnum(r.trials, 0) + "</td>";
      let h = "<h3>" + esc(SRC[g].game) + " duel: " + esc(a) + " (A) against " + esc(b) +
        " (B)</h3><table class='data' id='mu-" + g + "'><thead><tr><th>scenario</th>" +
        "<th>A seated as</th><th>P(A wins)</th><th>P(B wins)</th><th>P(draw)</th>" +
        "<th>P(timeout)</th><th>turns</th><th>trials</th></tr></thead><tbody>";
      for (const r of ab) h += "<tr>" + line(r, false) + "</tr>";
      if (a !== b) for (const r of ba) h += "<tr>" + line(r, true) + "</tr>";
      h += "</tbody></table><p class='note'>Both seatings are run (A as side A, and as " +
        "side B); P(draw) and P(timeout) are Monte Carlo means of the same trials (their " +
        "intervals are no wider than P(win)'s).</p>";
      mu.insertAdjacentHTML("beforeend", h);
      if (g === "classic_duels") {
        const tr = turnRows().filter((r) => r.a === a && r.b === b);
        for (const s of scenarios(g, tr)) {
          const rs = tr.filter((r) => r.range === s).sort((x, y) => x.turn - y.turn);
          const div = document.createElement("div");
          div.className = "plot"; div.id = "plot-destroyed-" + s.replace(/\W+/g, "_");
          mu.appendChild(div);
          const pick = (k) => rs.map((r) => r[k]);
          linePlot(div, { title: "Destroyed by turn, " + scenLabel(s), xlabel: "turn",
            ylabel: "P(destroyed by turn)", pct: true, x: pick("turn"), series: [
              { label: "A: " + a, y: pick("p_a_destroyed_by"), lo: pick("p_a_destroyed_by_lo"),
                hi: pick("p_a_destroyed_by_hi"), color: COLORS[0] },
              { label: "B: " + b, y: pick("p_b_destroyed_by"), lo: pick("p_b_destroyed_by_lo"),
                hi: pick("p_b_destroyed_by_hi"), color: COLORS[3] }] });
        }
        const causes = SRC.classic_duels.causes || [];
        const cr = causeRows().filter((r) => r.a === a && r.b === b);
        if (causes.length && cr.length) {
          const sc = scenarios(g, cr), at = new Map(cr.map((r) => [r.range, r]));
          // p_<side>_destroyed_by_<cause>: the side destroyed (C21: or out), by that cause
          const name = (c) => { const m = /^p_([ab])_destroyed_by_(.+)$/.exec(c);
            return m ? (m[1] === "a" ? "A (" + a + ")" : "B (" + b + ")") + " destroyed: " +
              m[2].replace(/_/g, " ") : c; };
          mu.insertAdjacentHTML("beforeend", "<h3>Causes of destruction</h3><table " +
            "class='data' id='mu-causes'><thead><tr><th class='t'>side and cause</th>" +
            sc.map((s) => "<th>" + esc(scenLabel(s)) + "</th>").join("") + "</tr></thead>" +
            "<tbody>" + causes.map((c) => "<tr><td class='t'>" + esc(name(c)) + "</td>" +
              sc.map((s) => { const r = at.get(s); return "<td>" + (r ? ci(r[c], r[c + "_lo"],
                r[c + "_hi"], 1, r[c + "_x"] === 1, true) : "–") + "</td>"; }).join("") +
              "</tr>").join("") + "</tbody></table><p class='note'>P(the side is destroyed " +
            "in the duel, and by that cause: head, centre torso, engine, pilot or " +
            "ammunition), 95% Monte Carlo intervals, A seated as side A.</p>");
        } else {
          mu.insertAdjacentHTML("beforeend", "<p class='note'>Causes of destruction: not " +
            "recorded by this run (its experiment does not ask for the metrics " +
            "p_&lt;side&gt;_destroyed_by_&lt;cause&gt;; <code>btsim duel --game classic" +
            "</code> prints them).</p>");
        }
      }
    }
    if (!any) mu.innerHTML = "<p class='muted'>No duel between " + esc(a) + " and " +
      esc(b) + " in these results.</p>";
    mu.insertAdjacentHTML("beforeend", forceList());
    el.insertAdjacentHTML("beforeend", assumptionsHtml(used));
  }

  // heat map -------------------------------------------------------------------------------------
  function lerp(a, b, t) { return Math.round(a + (b - a) * t); }
  function divColor(p) {  // 0 red, 0.5 white, 1 blue (RdBu ends)
    if (p == null || !isFinite(p)) return "#eeeeee";
    const lo = [178, 24, 43], mid = [247, 247, 247], hi = [33, 102, 172];
    const [c0, c1, t] = p < 0.5 ? [lo, mid, p / 0.5] : [mid, hi, (p - 0.5) / 0.5];
    return "rgb(" + lerp(c0[0], c1[0], t) + "," + lerp(c0[1], c1[1], t) + "," +
      lerp(c0[2], c1[2], t) + ")";
  }
  function viewHeatmap(el) {
    const games = ["as_duels", "classic_duels"].filter((g) => SRC[g]);
    if (!games.length) { el.innerHTML = "<h2>Round robin</h2><p>No round-robin results." +
      "</p>"; return; }
    const g = games.includes(STATE.game) ? STATE.game : games[0];
    const rows = duelRows(g);
    const scen = scenarios(g, rows);
    const sc = scen.includes(STATE.scen) ? STATE.scen : "mean";
    const zoom = Math.max(6, Math.min(60, +(STATE.zoom || 0) || 24));
    const fair = SRC[g].fairness;
    let units = [...new Set(rows.flatMap((r) => [r.a, r.b]))];
    if (fair) {
      const th = new Map(rowsOf(fair.points).map((r) => [r.unit, r.theta]));
      units.sort((x, y) => (th.get(y) || 0) - (th.get(x) || 0));
    } else units.sort();
    const idx = new Map(units.map((u, i) => [u, i]));
    const n = units.length;
    const cell = new Array(n * n).fill(null);
    for (const r of rows) {
      if (sc !== "mean" && r.range !== sc) continue;
      const k = idx.get(r.a) * n + idx.get(r.b);
      (cell[k] = cell[k] || []).push(r);
    }
    el.innerHTML = "<h2>Round robin</h2><div class='controls'>" +
      "<label>game <select id='hm-game'>" + games.map((x) => "<option value='" + x + "'" +
        (x === g ? " selected" : "") + ">" + esc(SRC[x].game) + "</option>").join("") +
      "</select></label><label>scenario <select id='hm-scen'><option value='mean'>mean " +
      "over scenarios</option>" + scen.map((s) => "<option" + (s === sc ? " selected" : "") +
        ">" + esc(s) + "</option>").join("") + "</select></label><label>zoom <input " +
      "id='hm-zoom' type='range' min='6' max='60' value='" + zoom + "'></label>" +
      "<span class='legend'><span style='background:" + divColor(0) + "'></span>0% " +
      "<span style='background:" + divColor(0.5) + "'></span>50% <span style='background:" +
      divColor(1) + "'></span>100% P(row wins)</span></div><p class='muted'>Cell: P(row " +
      "unit, seated as A, beats the column unit), strongest first. Hover for the numbers " +
      "and 95% intervals, click for the matchup.</p><div class='scroll hm'><canvas " +
      "id='hm'></canvas></div>";
    const set = (k, v) => go(Object.assign({}, STATE, { view: "heatmap", [k]: v }));
    $("#hm-game").addEventListener("change", (e) => go({ view: "heatmap", game: e.target
      .value }));
    $("#hm-scen").addEventListener("change", (e) => set("scen", e.target.value));
    $("#hm-zoom").addEventListener("change", (e) => set("zoom", e.target.value));
    const cv = $("#hm"), ctx = cv.getContext("2d");
    const labFont = Math.min(12, Math.max(7, zoom - 4)) + "px sans-serif";
    ctx.font = labFont;
    const labW = Math.min(260, Math.max(...units.map((u) => ctx.measureText(u).width)) + 10);
    const W = labW + n * zoom + 4, H = labW + n * zoom + 4;
    const dpr = window.devicePixelRatio || 1;
    cv.width = W * dpr; cv.height = H * dpr;
    cv.style.width = W + "px"; cv.style.height = H + "px";
    ctx.scale(dpr, dpr);
    const val = (list) => {
      if (!list) return null;
      const p = list.reduce((s, r) => s + r.p_win_a, 0) / list.length;
      // interval of a mean of independent estimates: half-widths in quadrature
      const hw = Math.sqrt(list.reduce((s, r) => s + Math.pow(((r.p_win_a_hi ?? r.p_win_a) -
        (r.p_win_a_lo ?? r.p_win_a)) / 2, 2), 0)) / list.length;
      const exact = list.every((r) => r.p_win_a_x === 1);
      return exact ? { p, lo: null, hi: null, exact, list } :
        { p, lo: Math.max(0, p - hw), hi: Math.min(1, p + hw), exact, list };
    };
    const vals = cell.map(val);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const v = vals[i * n + j];
        ctx.fillStyle = divColor(v ? v.p : null);
        ctx.fillRect(labW + j * zoom, labW + i * zoom, zoom - 1, zoom - 1);
        if (v && zoom >= 22) {
          ctx.fillStyle = Math.abs(v.p - 0.5) > 0.3 ? "#fff" : "#111";
          ctx.font = (zoom >= 30 ? 11 : 9) + "px sans-serif";
          ctx.textAlign = "center"; ctx.textBaseline = "middle";
          ctx.fillText(Math.round(100 * v.p), labW + j * zoom + zoom / 2,
            labW + i * zoom + zoom / 2);
        }
      }
    }
    ctx.fillStyle = "#222"; ctx.font = labFont;
    ctx.textAlign = "right"; ctx.textBaseline = "middle";
    if (zoom >= 8) {
      units.forEach((u, i) => ctx.fillText(u, labW - 4, labW + i * zoom + zoom / 2));
      units.forEach((u, j) => {
        ctx.save();
        ctx.translate(labW + j * zoom + zoom / 2, labW - 4);
        ctx.rotate(-Math.PI / 2);
        ctx.textAlign = "left";
        ctx.fillText(u, 0, 0);
        ctx.restore();
      });
    }
    const at = (e) => {
      const r = cv.getBoundingClientRect();
      const j = Math.floor((e.clientX - r.left - labW) / zoom);
      const i = Math.floor((e.clientY - r.top - labW) / zoom);
      return i >= 0 && j >= 0 && i < n && j < n ? [i, j] : null;
    };
    cv.addEventListener("mousemove", (e) => {
      const ij = at(e);
      if (!ij) return hideTip();
      const v = vals[ij[0] * n + ij[1]];
      if (!v) return hideTip();
      showTip("<b>" + esc(units[ij[0]]) + "</b> (A) vs <b>" + esc(units[ij[1]]) + "</b> (B)" +
        "<br>P(A wins), " + esc(sc === "mean" ? "mean over " + v.list.length +
          " scenarios" : sc) + ": " + ci(v.p, v.lo, v.hi, 1, v.exact, true) + v.list.map(
          (r) => "<br><span class='muted'>" + esc(r.range) + ": win " + ci(r.p_win_a,
            r.p_win_a_lo, r.p_win_a_hi, 1, r.p_win_a_x === 1, true) + ", lose " +
            fpct(r.p_win_b) + ", draw " + fpct(r.p_draw) + ", timeout " + fpct(r.p_timeout) +
            ", " + fnum(r.turns, 1) + " turns</span>").join(""), e.clientX, e.clientY);
    });
    cv.addEventListener("mouseleave", hideTip);
    cv.addEventListener("click", (e) => {
      const ij = at(e);
      if (ij) { hideTip(); go({ view: "matchup", unit: units[ij[0]], vs: units[ij[1]] }); }
    });
    API.plots.push({ id: "hm", title: "heat map", series: n, points: n * n });
    el.insertAdjacentHTML("beforeend", assumptionsHtml(SRC[g].assumptions));
  }

  // fairness -------------------------------------------------------------------------------------
  function fairSources() {
    const out = [];
    if (SRC.rating) out.push(["rating", "rating summary (" + SRC.rating.file + ")"]);
    for (const g of ["as_duels", "classic_duels"]) {
      if (SRC[g] && SRC[g].fairness) out.push([g, SRC[g].game + " " +
        SRC[g].fairness.cost.toUpperCase() + " (duel analysis, " + SRC[g].fairness
          .experiment + ")"]);
    }
    return out;
  }
  function svgScatter(el, o) {
    // o: {points:[{x,y,lo,hi,color,tip,unit}], line:{x,y,lo,hi}, logx, xlabel, ylabel}
    const W = Math.max(480, Math.min(el.clientWidth || 800, 960)), H = 440;
    const m = { l: 60, r: 16, t: 16, b: 46 };
    const fx = o.logx ? Math.log : (v) => v;
    const xs = o.points.map((p) => fx(p.x)).concat(o.line ? o.line.x.map(fx) : []);
    const ys = o.points.flatMap((p) => [p.y, p.lo ?? p.y, p.hi ?? p.y])
      .concat(o.line ? o.line.lo.concat(o.line.hi) : []).filter((v) => isFinite(v));
    let [x0, x1] = [Math.min(...xs), Math.max(...xs)], [y0, y1] = [Math.min(...ys),
      Math.max(...ys)];
    const px = (x1 - x0) * 0.05 || 1, py = (y1 - y0) * 0.06 || 1;
    x0 -= px; x1 += px; y0 -= py; y1 += py;
    const sx = (v) => m.l + (fx(v) - x0) / (x1 - x0) * (W - m.l - m.r);
    const sy = (v) => H - m.b - (v - y0) / (y1 - y0) * (H - m.t - m.b);
    let s = "<svg xmlns='http://www.w3.org/2000/svg' width='" + W + "' height='" + H +
      "' class='scatter'>";
    // ticks
    const ticks = (a, b, k) => { const st = Math.pow(10, Math.floor(Math.log10((b - a) / k)));
      const step = [1, 2, 5, 10].map((f) => f * st).find((f) => (b - a) / f <= k) || st;
      const out = []; for (let v = Math.ceil(a / step) * step; v <= b; v += step) out.push(v);
      return out; };
    const xt = o.logx ? ticks(Math.exp(x0), Math.exp(x1), 8) : ticks(x0, x1, 8);
    for (const t of xt) { if (o.logx && t <= 0) continue; const X = sx(t);
      s += "<line x1='" + X + "' x2='" + X + "' y1='" + m.t + "' y2='" + (H - m.b) +
        "' class='grid'/><text x='" + X + "' y='" + (H - m.b + 14) + "' class='tick' " +
        "text-anchor='middle'>" + (+t.toPrecision(3)) + "</text>"; }
    for (const t of ticks(y0, y1, 6)) { const Y = sy(t);
      s += "<line x1='" + m.l + "' x2='" + (W - m.r) + "' y1='" + Y + "' y2='" + Y +
        "' class='grid'/><text x='" + (m.l - 6) + "' y='" + (Y + 4) + "' class='tick' " +
        "text-anchor='end'>" + (+t.toPrecision(3)) + "</text>"; }
    s += "<text x='" + ((W + m.l) / 2) + "' y='" + (H - 8) + "' text-anchor='middle' " +
      "class='lab'>" + esc(o.xlabel) + "</text><text transform='translate(14," +
      ((H - m.b) / 2) + ") rotate(-90)' text-anchor='middle' class='lab'>" + esc(o.ylabel) +
      "</text>";
    if (o.line) {
      const L = o.line;
      const top = L.x.map((x, i) => sx(x) + "," + sy(L.hi[i]));
      const bot = L.x.map((x, i) => sx(x) + "," + sy(L.lo[i])).reverse();
      s += "<polygon points='" + top.concat(bot).join(" ") + "' class='band'/>";
      s += "<polyline points='" + L.x.map((x, i) => sx(x) + "," + sy(L.y[i])).join(" ") +
        "' class='fit'/>";
    }
    o.points.forEach((p, i) => {
      if (!isFinite(p.x) || !isFinite(p.y)) return;
      const X = sx(p.x), Y = sy(p.y);
      if (p.lo != null && p.hi != null && isFinite(p.lo) && isFinite(p.hi)) {
        s += "<line x1='" + X + "' x2='" + X + "' y1='" + sy(p.lo) + "' y2='" + sy(p.hi) +
          "' stroke='" + p.color + "' class='err'/>";
      }
      s += "<circle cx='" + X + "' cy='" + Y + "' r='4.5' fill='" + p.color +
        "' data-i='" + i + "' class='pt'/>";
    });
    s += "</svg>";
    el.innerHTML = s;
    const svg = el.querySelector("svg");
    svg.addEventListener("mousemove", (e) => {
      const c = e.target.closest("circle");
      if (!c) return hideTip();
      showTip(o.points[+c.dataset.i].tip, e.clientX, e.clientY);
    });
    svg.addEventListener("mouseleave", hideTip);
    svg.addEventListener("click", (e) => {
      const c = e.target.closest("circle");
      if (c) { hideTip(); go({ view: "unit", unit: o.points[+c.dataset.i].unit }); }
    });
    API.plots.push({ id: el.id, title: o.title || "scatter", series: 1,
      points: o.points.length });
  }
  function verdictLegend() {
    return "<span class='legend'>" + Object.entries(VERDICT_COLOR).filter(([k]) => k !==
      "unknown").map(([k, c]) => "<span style='background:" + c + "'></span>" + k).join(" ") +
      "</span>";
  }
  function viewFairness(el) {
    const srcs = fairSources();
    if (!srcs.length) { el.innerHTML = "<h2>Fairness</h2><p>No round-robin or rating " +
      "results.</p>"; return; }
    const k = srcs.some((s) => s[0] === STATE.src) ? STATE.src : srcs[0][0];
    el.innerHTML = "<h2>Fairness</h2><div class='controls'><label>source <select " +
      "id='fair-src'>" + srcs.map(([v, l]) => "<option value='" + v + "'" + (v === k ?
        " selected" : "") + ">" + esc(l) + "</option>").join("") + "</select></label>" +
      verdictLegend() + "</div><div id='fair-lead' class='lead'></div><div id='fair-plot' " +
      "class='plot'></div><div id='fair-gap' class='plot'></div><div id='fair-table'></div>";
    $("#fair-src").addEventListener("change", (e) => go({ view: "fairness",
      src: e.target.value }));
    if (k === "rating") return fairRating(el);
    const F = SRC[k].fairness, up = F.cost.toUpperCase();
    const pts = rowsOf(F.points);
    const tipOf = (p) => "<b>" + esc(p.unit) + "</b><br>" + up + " " + fnum(p.price, 0) +
      " · fair " + up + " " + ci(p.fair, p.fair_lo, p.fair_hi, 0) + "<br>strength " +
      ci(p.theta, p.theta_lo, p.theta_hi, 2) + "<br>residual " + ci(p.residual,
        p.residual_lo, p.residual_hi, 2) + "<br>verdict: " + esc(p.verdict);
    svgScatter($("#fair-plot"), { title: "strength vs " + up, logx: true,
      xlabel: up + " (log scale)", ylabel: "strength (ln Bradley-Terry, 95% interval)",
      line: { x: F.line.price, y: F.line.theta, lo: F.line.lo, hi: F.line.hi },
      points: pts.map((p) => ({ x: p.price, y: p.theta, lo: p.theta_lo, hi: p.theta_hi,
        color: VERDICT_COLOR[p.verdict] || "#666", tip: tipOf(p), unit: p.unit })) });
    const gap = $("#fair-gap");
    linePlot(gap, { title: "How big a " + up + " gap decides a fight", xlabel: up +
      " ratio (higher / lower)", ylabel: "score of the higher-" + up + " side",
      pct: true, logx: true, x: F.gap.ratio, series: [{ label: "fitted score",
        y: F.gap.p, lo: F.gap.lo, hi: F.gap.hi, color: "#000000" }] });
    const sorted = pts.filter((p) => p.residual != null).sort((a, b) => b.residual -
      a.residual);
    const top = sorted[0], bot = sorted[sorted.length - 1];
    const nUnder = pts.filter((p) => p.verdict === "under-costed").length;
    const nOver = pts.filter((p) => p.verdict === "over-costed").length;
    $("#fair-lead").innerHTML = top ? "<b>Most under-costed:</b> " + link("unit",
      { unit: top.unit }, top.unit) + ", " + up + " " + fnum(top.price, 0) + " against a " +
      "fair " + up + " of " + ci(top.fair, top.fair_lo, top.fair_hi, 0) + " (verdict: " +
      esc(top.verdict) + "). <b>Most over-costed:</b> " + link("unit", { unit: bot.unit },
      bot.unit) + ", " + up + " " + fnum(bot.price, 0) + " against " + ci(bot.fair,
      bot.fair_lo, bot.fair_hi, 0) + " (" + esc(bot.verdict) + "). " + nUnder +
      " under-costed and " + nOver + " over-costed of " + pts.length + " (a verdict " +
      "needs the residual's 95% interval to exclude 0). Fitted slope beta = " +
      fnum(F.beta, 2) + " [" + fnum(F.beta_lo, 2) + ", " + fnum(F.beta_hi, 2) + "]." : "";
    let h = "<table class='data' id='fair-rank'><thead><tr><th class='t'>unit</th><th>" + up +
      "</th><th>fair " + up + "</th><th>strength</th><th>residual</th><th class='t'>" +
      "verdict</th></tr></thead><tbody>";
    for (const p of sorted) {
      h += "<tr><td class='t'>" + link("unit", { unit: p.unit }, p.unit) + "</td><td>" +
        fnum(p.price, 0) + " <span class='ex'>exact</span></td><td>" + ci(p.fair, p.fair_lo,
          p.fair_hi, 0) + "</td><td>" + ci(p.theta, p.theta_lo, p.theta_hi, 2) + "</td><td>" +
        ci(p.residual, p.residual_lo, p.residual_hi, 2) + "</td><td class='t' style='color:" +
        (VERDICT_COLOR[p.verdict] || "#333") + "'>" + esc(p.verdict) + "</td></tr>";
    }
    $("#fair-table").innerHTML = "<h3>Every unit, most under-costed first</h3>" + h +
      "</tbody></table><p class='note'>Fair " + up + ": the " + up + " at which the " +
      "fairness curve predicts the unit's strength. Intervals join the Monte Carlo " +
      "bootstrap of the strengths and the card bootstrap of the curve.</p>";
    el.insertAdjacentHTML("beforeend", assumptionsHtml(F.assumptions));
  }
  function fairRating(el) {
    const R = SRC.rating, pts = rowsOf(R.points);
    const verdictColor = (v) => VERDICT_COLOR[v] || (/under/.test(v) ? VERDICT_COLOR[
      "under-costed"] : /over/.test(v) ? VERDICT_COLOR["over-costed"] : "#999999");
    const xs = pts.map((p) => p.price).filter(isFinite);
    const lo = Math.min(...xs), hi = Math.max(...xs);
    svgScatter($("#fair-plot"), { title: "fair price vs price", logx: true,
      xlabel: "price (log scale)", ylabel: "fair price (95% interval)",
      line: { x: [lo, hi], y: [lo, hi], lo: [lo, hi], hi: [lo, hi] },
      points: pts.map((p) => ({ x: p.price, y: p.fair_price, lo: p.fair_price_ci_low,
        hi: p.fair_price_ci_high, color: verdictColor(String(p.verdict)), unit: p.unit,
        tip: "<b>" + esc(p.unit) + "</b><br>price " + fnum(p.price, 0) + " · fair " +
          ci(p.fair_price, p.fair_price_ci_low, p.fair_price_ci_high, 0) + "<br>ratio " +
          fnum(p.ratio, 2) + " · " + esc(p.verdict) + " · robustness " + esc(p.robustness) +
          " · n " + fnum(p.n, 0) })) });
    $("#fair-gap").remove();
    const sorted = pts.slice().sort((a, b) => a.ratio - b.ratio);
    const top = sorted[0];
    $("#fair-lead").innerHTML = top ? "<b>Most under-priced:</b> " + link("unit",
      { unit: top.unit }, top.unit) + ": price " + fnum(top.price, 0) + " against a fair " +
      "price of " + ci(top.fair_price, top.fair_price_ci_low, top.fair_price_ci_high, 0) +
      " (ratio " + fnum(top.ratio, 2) + ", " + esc(top.verdict) + ", robustness " +
      esc(top.robustness) + ")." : "";
    $("#fair-table").innerHTML = "<table class='data'><thead><tr><th class='t'>unit</th>" +
      "<th>price</th><th>fair price</th><th>ratio</th><th class='t'>verdict</th><th " +
      "class='t'>robustness</th><th>n</th></tr></thead><tbody>" + sorted.map((p) => "<tr>" +
        "<td class='t'>" + link("unit", { unit: p.unit }, p.unit) + "</td><td>" +
        fnum(p.price, 0) + "</td><td>" + ci(p.fair_price, p.fair_price_ci_low,
          p.fair_price_ci_high, 0) + "</td><td>" + fnum(p.ratio, 2) + "</td><td class='t'>" +
        esc(p.verdict) + "</td><td class='t'>" + esc(p.robustness) + "</td><td>" +
        fnum(p.n, 0) + "</td></tr>").join("") + "</tbody></table>";
    el.insertAdjacentHTML("beforeend", assumptionsHtml(R.assumptions));
  }

  // about ----------------------------------------------------------------------------------------
  function viewAbout(el) {
    const all = [];
    for (const k of DATA.order || []) for (const a of SRC[k].assumptions || []) all.push(a);
    el.innerHTML = "<h2>About</h2><p>Built by <code>btsim report</code> from saved " +
      "results; opened from disk, it makes no network request. Sources: " +
      (DATA.order || []).map((k) => "<code>" + esc(k) + "</code>").join(", ") +
      ". Plots: uPlot " + esc(DATA.uplot || "") + " (MIT). Every estimate is shown with " +
      "its 95% Monte Carlo interval; \"exact\" marks facts and exact computations.</p>" +
      (DATA.built ? "<p class='muted'>" + esc(DATA.built) + "</p>" : "") +
      assumptionsHtml(all);
  }

  // -- render --------------------------------------------------------------------------------
  const RENDER = { catalog: viewCatalog, unit: viewUnit, matchup: viewMatchup,
    heatmap: viewHeatmap, fairness: viewFairness, about: viewAbout };
  function render() {
    STATE = readHash();
    API.plots = [];
    hideTip();
    tabs();
    const el = $("#view");
    el.innerHTML = "";
    try {
      (RENDER[STATE.view] || viewCatalog)(el);
    } catch (err) {
      API.errors.push(String(err));
      el.insertAdjacentHTML("beforeend", "<p class='err'>Could not draw this view: " +
        esc(err) + "</p>");
      throw err;
    } finally {
      API.renders += 1;
      API.state = STATE;
      document.body.dataset.view = STATE.view;
      document.body.dataset.renders = String(API.renders);
    }
  }
  window.addEventListener("hashchange", render);
  render();
})();
