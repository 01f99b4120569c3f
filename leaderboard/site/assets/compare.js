/* rgb-leaderboard compare page (site/pages/compare.py): two entries side by side, read from the
 * site's downloads. No number is computed here: scores, outcome shares and paired differences are
 * looked up as the build wrote them; B before A by id only flips the sign of a difference.
 * Data is untrusted: it is only ever inserted with textContent. */
(function () {
  "use strict";

  function start() {
    if (!window.LB) return;  // assets/lb.js loads first
    var el = window.LB.el;
    var holder = document.getElementById("lb-compare");
    var source = document.getElementById("lb-compare-setup");
    if (!holder || !source || holder.dataset.lbInit) return;
    holder.dataset.lbInit = "1";
    var setup = JSON.parse(source.textContent);
    var S = setup.strings;

    function t(key, values) {
      var text = Object.prototype.hasOwnProperty.call(S, key) ? String(S[key]) : key;
      return text.replace(/\{(\w+)\}/g, function (whole, name) {
        return values && values[name] !== undefined ? String(values[name]) : whole;
      });
    }
    function num(v) {
      return (100 * v).toFixed(1).replace("-", S.minus);
    }
    function ci(lo, hi) {
      if (lo === null || hi === null || lo === undefined || hi === undefined) return "";
      var sep = Math.min(lo, hi) < 0 ? S.range_word : "–";
      return num(lo) + sep + num(hi);
    }
    function rate(cell, v, lo, hi, signed) {
      if (v === null || v === undefined || isNaN(v)) { cell.textContent = "—"; return; }
      cell.appendChild(document.createTextNode((signed && v > 0 ? "+" : "") + num(v)));
      var c = ci(lo, hi);
      if (c) cell.appendChild(el("span", "lb-ci", c));
      cell.dataset.value = String(v);
    }

    holder.textContent = t("loading");
    var base = setup.downloads;
    Promise.all(["board-scores.json", "board-outcomes.json", "paired-differences.json"]
      .map(function (name) {
        return fetch(base + name).then(function (r) {
          if (!r.ok) throw new Error(name + ": HTTP " + r.status);
          return r.json();
        });
      }))
      .then(function (files) { render(files[0], files[1], files[2].differences); },
        function (err) { holder.textContent = t("failed", { error: err.message }); });

    function render(scores, outcomes, diffs) {
      var score = {};
      scores.forEach(function (r) {
        if (r.metric === "score") score[[r.model, r.lang, r.mode, r.ability].join("|")] = r;
      });
      var share = {};
      outcomes.forEach(function (r) {
        if (r.noise_rate === null) share[[r.model, r.lang, r.mode, r.ability, r.metric].join("|")] = r;
      });
      var diff = {};
      diffs.forEach(function (d) { diff[[d.a, d.b, d.lang, d.mode, d.ability].join("|")] = d; });

      holder.textContent = "";
      var params = new URLSearchParams(window.location.search);
      var ids = setup.entries.map(function (e) { return e.id; });
      var pick = function (name, fallback) {
        var v = params.get(name);
        return ids.indexOf(v) >= 0 ? v : fallback;
      };
      var state = {
        a: pick("a", ids[0]),
        b: pick("b", ids[1] || ids[0]),
        mode: setup.modes.indexOf(params.get("mode")) >= 0 ? params.get("mode") : setup.ranked_mode
      };

      var controls = el("form", "lb-controls lb-compare-controls");
      controls.addEventListener("submit", function (ev) { ev.preventDefault(); });
      function select(name, label, options) {
        var s = el("select");
        s.name = name;
        options.forEach(function (o) {
          var opt = el("option", null, o[1]);
          opt.value = o[0];
          s.appendChild(opt);
        });
        s.value = state[name];
        s.addEventListener("change", function () { state[name] = s.value; update(); });
        var l = el("label", "lb-control", label + " ");
        l.appendChild(s);
        controls.appendChild(l);
      }
      var names = setup.entries.map(function (e) { return [e.id, e.name]; });
      select("a", t("pick_a"), names);
      select("b", t("pick_b"), names);
      select("mode", t("mode"), setup.modes.map(function (m) { return [m, t("mode." + m)]; }));
      var link = el("a", "lb-compare-link", t("link"));
      controls.appendChild(link);
      holder.appendChild(controls);
      var out = el("div", "lb-compare-out");
      holder.appendChild(out);

      function nameOf(id) {
        for (var i = 0; i < setup.entries.length; i++) {
          if (setup.entries[i].id === id) return setup.entries[i].name;
        }
        return id;
      }

      function paired(a, b, lang, mode, ability) {
        var d = diff[[a, b, lang, mode, ability].join("|")];
        if (d) return { diff: d.diff, lo: d.ci_low, hi: d.ci_high, n: d.n_questions, sign: d.sign };
        d = diff[[b, a, lang, mode, ability].join("|")];
        if (d) {
          return { diff: -d.diff, lo: d.ci_high === null ? null : -d.ci_high,
            hi: d.ci_low === null ? null : -d.ci_low, n: d.n_questions, sign: -d.sign };
        }
        return null;
      }

      function table(id, heads) {
        var tbl = el("table", "lb-table lb-compare-table");
        tbl.id = id;
        var tr = el("tr");
        heads.forEach(function (h) {
          var th = el("th", null, h);
          th.scope = "col";
          tr.appendChild(th);
        });
        var thead = el("thead");
        thead.appendChild(tr);
        tbl.appendChild(thead);
        var body = el("tbody");
        tbl.appendChild(body);
        var wrap = el("div", "lb-scroll");
        wrap.appendChild(tbl);
        return { wrap: wrap, body: body };
      }

      function update() {
        var query = new URLSearchParams(window.location.search);
        query.set("a", state.a);
        query.set("b", state.b);
        if (state.mode !== setup.ranked_mode) query.set("mode", state.mode); else query.delete("mode");
        var url = window.location.pathname + "?" + query.toString() + window.location.hash;
        window.history.replaceState(window.history.state, "", url);
        link.href = window.location.href;
        out.textContent = "";
        if (state.a === state.b) {
          out.appendChild(el("p", "lb-warn", t("same")));
          return;
        }
        setup.langs.forEach(function (lang) {
          out.appendChild(el("h2", null, t("lang." + lang)));
          out.appendChild(el("p", "lb-note", t("scores_title",
            { lang: t("lang." + lang), mode: t("mode." + state.mode) })));
          var heads = [t("col_ability"), t("col_a") + ": " + nameOf(state.a),
            t("col_b") + ": " + nameOf(state.b), t("col_diff"), t("col_n"), t("col_verdict")];
          var sc = table("compare-" + lang + "-scores", heads);
          setup.abilities.forEach(function (ability) {
            var tr = el("tr");
            tr.dataset.ability = ability;
            tr.appendChild(el("th", null, t("ability." + ability)));
            [state.a, state.b].forEach(function (id) {
              var r = score[[id, lang, state.mode, ability].join("|")];
              var td = el("td");
              rate(td, r ? r.value : null, r ? r.ci_low : null, r ? r.ci_high : null, false);
              tr.appendChild(td);
            });
            var p = paired(state.a, state.b, lang, state.mode, ability);
            var d = el("td", "lb-compare-diff");
            rate(d, p ? p.diff : null, p ? p.lo : null, p ? p.hi : null, true);
            tr.appendChild(d);
            tr.appendChild(el("td", null, p ? p.n : "—"));
            var verdict = !p ? "no_pair" : p.sign > 0 ? "a_higher" : p.sign < 0 ? "b_higher" : "tied";
            var v = el("td", "lb-compare-verdict", t(verdict));
            v.dataset.verdict = verdict;
            tr.appendChild(v);
            sc.body.appendChild(tr);
          });
          out.appendChild(sc.wrap);

          out.appendChild(el("p", "lb-note", t("outcomes_title", { lang: t("lang." + lang) })));
          var metrics = ["correct", "refused", "error_claimed", "wrong"];
          var oc = table("compare-" + lang + "-outcomes",
            [t("col_ability"), t("col_model")].concat(metrics.map(function (m) { return t(m); })));
          setup.abilities.slice(1).forEach(function (ability) {
            [["a", state.a], ["b", state.b]].forEach(function (side, i) {
              var tr = el("tr", i === 0 ? "lb-compare-first" : "");
              tr.appendChild(el("th", null, i === 0 ? t("ability." + ability) : ""));
              tr.appendChild(el("td", null, t("col_" + side[0]) + ": " + nameOf(side[1])));
              metrics.forEach(function (m) {
                var r = share[[side[1], lang, state.mode, ability, m].join("|")];
                var td = el("td");
                rate(td, r ? r.value : null, r ? r.ci_low : null, r ? r.ci_high : null, false);
                tr.appendChild(td);
              });
              oc.body.appendChild(tr);
            });
          });
          out.appendChild(oc.wrap);
        });
      }
      update();
    }
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(start);  // material's instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
