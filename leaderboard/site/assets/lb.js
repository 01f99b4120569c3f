/* rgb-leaderboard site script: sortable tables (vendored tablesort), row filters, instance browser.
 * Data is untrusted: it is only ever inserted with textContent, never parsed as HTML. The browser's
 * words come from the page (#lb-instances-ui, the message tables in the page's language). */
(function () {
  "use strict";

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // shared with the page scripts that load after this one (assets/compare.js)
  window.LB = { el: el };

  function initTables(root) {
    root.querySelectorAll("table.lb-table").forEach(function (table) {
      if (table.dataset.lbInit) return;
      table.dataset.lbInit = "1";
      if (window.Tablesort) new window.Tablesort(table);
    });
    root.querySelectorAll("input.lb-filter").forEach(function (input) {
      if (input.dataset.lbInit) return;
      input.dataset.lbInit = "1";
      var table = document.getElementById(input.dataset.table);
      if (!table) return;
      input.addEventListener("input", function () { filterRows(table); });
    });
    initFacets(root);
    initBands(root);
  }

  // The trivial-baseline band (render/tables.py) shows its highest row until the reader asks.
  function initBands(root) {
    root.querySelectorAll("button.lb-band-toggle").forEach(function (button) {
      if (button.dataset.lbInit) return;
      button.dataset.lbInit = "1";
      var table = button.closest("table");
      if (!table) return;
      table.classList.add("lb-band-collapsed");
      button.hidden = false;
      button.addEventListener("click", function () {
        var open = table.classList.toggle("lb-band-collapsed") === false;
        button.setAttribute("aria-expanded", open ? "true" : "false");
        button.textContent = open ? button.dataset.hide : button.dataset.show;
      });
    });
  }

  // The ranking filters (render/filters.py): the choice lives in the page URL's query, so a
  // filtered view is a link; every bar of the page shows it and filters its own table.
  var FACETS = ["size", "quant", "engine", "licence", "open", "kind"];
  var SIZES = { le2b: 2e9, le8b: 8e9, le15b: 15e9 };

  function facetState() {
    var params = new URLSearchParams(window.location.search);
    var state = {};
    FACETS.forEach(function (f) {
      var v = params.get(f);
      if (v) state[f] = v;
    });
    return state;
  }

  function allFacts() {
    return new URLSearchParams(window.location.search).get("facts") === "all";
  }

  function keepRow(tr, state) {
    if (!tr.hasAttribute("data-f-kind")) return Object.keys(state).length === 0;
    return FACETS.every(function (f) {
      if (!state[f]) return true;
      if (f === "size") {
        var n = parseFloat(tr.getAttribute("data-f-params"));
        return !isNaN(n) && n <= (SIZES[state.size] || Infinity);
      }
      return tr.getAttribute("data-f-" + f) === state[f];
    });
  }

  function filterRows(table) {
    var input = document.querySelector('input.lb-filter[data-table="' + table.id + '"]');
    var q = input ? input.value.trim().toLowerCase() : "";
    var bar = document.querySelector('form.lb-facets[data-table="' + table.id + '"]');
    var state = bar ? facetState() : {};
    var shown = 0;
    var total = 0;
    table.querySelectorAll("tbody:not(.lb-band-head) tr").forEach(function (tr) {
      var hide = (q !== "" && tr.textContent.toLowerCase().indexOf(q) === -1) ||
        (bar !== null && !keepRow(tr, state));
      tr.hidden = hide;
      total += 1;
      if (!hide) shown += 1;
    });
    table.querySelectorAll("tbody.lb-band-head").forEach(function (head) {
      var band = head.nextElementSibling;
      head.hidden = !band || !band.querySelector("tr:not([hidden])");
    });
    if (bar) {
      var count = bar.querySelector(".lb-facet-count");
      if (count) {
        count.textContent = bar.dataset.count.replace("{shown}", String(shown))
          .replace("{total}", String(total));
      }
      var link = bar.querySelector(".lb-facet-link");
      if (link) link.href = window.location.href;
    }
  }

  function applyFacets() {
    var state = facetState();
    document.querySelectorAll("form.lb-facets").forEach(function (bar) {
      bar.querySelectorAll("select").forEach(function (select) {
        var v = state[select.name] || "";
        var known = Array.prototype.some.call(select.options, function (o) {
          return o.value === v;
        });
        if (!known) option(select, v, v);  // a linked value this table has no row of
        select.value = v;
      });
      var table = document.getElementById(bar.dataset.table);
      var more = bar.querySelector(".lb-facet-more");
      if (table) {
        table.classList.add("lb-facts-js");
        table.classList.toggle("lb-show-extra", allFacts());
        filterRows(table);
      }
      if (more) {
        more.setAttribute("aria-pressed", allFacts() ? "true" : "false");
        more.textContent = allFacts() ? more.dataset.hide : more.dataset.show;
      }
    });
  }

  function setFacets(state) {
    var params = new URLSearchParams(window.location.search);
    FACETS.concat(["facts"]).forEach(function (f) {
      if (state[f]) params.set(f, state[f]); else params.delete(f);
    });
    var query = params.toString();
    var url = window.location.pathname + (query ? "?" + query : "") + window.location.hash;
    window.history.replaceState(window.history.state, "", url);
    applyFacets();
  }

  function initFacets(root) {
    var bars = root.querySelectorAll("form.lb-facets");
    bars.forEach(function (bar) {
      if (bar.dataset.lbInit) return;
      bar.dataset.lbInit = "1";
      bar.addEventListener("submit", function (ev) { ev.preventDefault(); });
      var more = bar.querySelector(".lb-facet-more");
      if (more) {
        more.addEventListener("click", function () {
          var state = facetState();
          state.facts = allFacts() ? "" : "all";
          setFacets(state);
        });
      }
      bar.addEventListener("change", function (ev) {
        if (!ev.target || ev.target.tagName !== "SELECT") return;
        var state = facetState();
        if (allFacts()) state.facts = "all";
        state[ev.target.name] = ev.target.value;
        setFacets(state);
      });
      bar.addEventListener("reset", function (ev) {
        ev.preventDefault();
        setFacets(allFacts() ? { facts: "all" } : {});
      });
    });
    if (bars.length) applyFacets();
  }

  function option(select, value, label) {
    var o = el("option", null, label);
    o.value = value;
    select.appendChild(o);
  }

  function labelled(text, control) {
    var label = el("label", "lb-control", text + " ");
    label.appendChild(control);
    return label;
  }

  // A message of the page's language with {name} filled in (a missing one shows its key).
  function messages(node) {
    var table = node ? JSON.parse(node.textContent) : {};
    return function (key, values) {
      var text = Object.prototype.hasOwnProperty.call(table, key) ? String(table[key]) : key;
      return text.replace(/\{(\w+)\}/g, function (whole, name) {
        return values && Object.prototype.hasOwnProperty.call(values, name) ?
          String(values[name]) : whole;
      });
    };
  }

  function initBrowser() {
    var holder = document.getElementById("lb-instances");
    var source = document.getElementById("lb-instances-data");
    if (!holder || !source || holder.dataset.lbInit) return;
    holder.dataset.lbInit = "1";
    var doc = JSON.parse(source.textContent);
    var t = messages(document.getElementById("lb-instances-ui"));
    // The items live in data parts next to the page (same origin), fetched when needed.
    var items = [];
    var loaded = 0;
    var pending = null;
    var ticket = 0;
    function loadMore(need) {
      if (items.length >= need || loaded >= doc.parts.length) return Promise.resolve();
      if (!pending) {
        pending = fetch(doc.parts[loaded].url, { credentials: "same-origin" })
          .then(function (r) {
            if (!r.ok) throw new Error("HTTP " + r.status);
            return r.json();
          })
          .then(function (part) {
            loaded += 1;
            items = items.concat(part.items);
            pending = null;
          }, function (err) { pending = null; throw err; });
      }
      return pending.then(function () { return loadMore(need); });
    }
    var names = {};
    doc.models.forEach(function (m) { names[m.id] = m.name; });

    var search = el("input", "lb-filter");
    search.type = "search";
    search.placeholder = t("search_placeholder");
    search.setAttribute("aria-label", t("search_label"));
    var model = el("select");
    option(model, "", t("all_models"));
    doc.models.forEach(function (m) { option(model, m.id, m.name); });
    var outcome = el("select");
    option(outcome, "all", t("pass_and_fail"));
    option(outcome, "pass", t("pass"));
    option(outcome, "fail", t("fail"));
    var mode = el("select");
    option(mode, "rgb", t("mode_rgb"));
    option(mode, "strict", t("mode_strict"));
    var controls = el("div", "lb-controls");
    controls.appendChild(search);
    controls.appendChild(labelled(t("label_model"), model));
    controls.appendChild(labelled(t("label_outcome"), outcome));
    controls.appendChild(labelled(t("label_mode"), mode));
    var count = el("p", "lb-count");
    var list = el("div", "lb-list");
    var more = el("button", "md-button lb-more", t("show_more"));
    more.type = "button";
    holder.appendChild(controls);
    holder.appendChild(count);
    holder.appendChild(list);
    holder.appendChild(more);
    var limit = 25;

    function keep(pred) {
      if (outcome.value === "all") return true;
      var v = pred[mode.value];
      if (v === undefined) return false;
      return outcome.value === "pass" ? v === 1 : v === 0;
    }

    function card(item, ids) {
      var art = el("article", "lb-item");
      art.dataset.id = String(item.id);
      art.appendChild(el("h3", null, "#" + item.id + "  " + (item.q || t("no_question"))));
      if (item.a) art.appendChild(el("p", "lb-gold", t("gold", { answer: item.a.join(" | ") })));
      if (item.fake && item.fake.length) {
        art.appendChild(el("p", "lb-fake", t("fake", { answer: item.fake.join(" | ") })));
      }
      if (item.docs) {
        var det = el("details", "lb-docs");
        det.appendChild(el("summary", null, t("passages", { n: item.docs.length })));
        var ol = el("ol");
        item.docs.forEach(function (d, i) {
          // probes record where each passage came from (pool position or donor question)
          var li = el("li", null, item.src && item.src[i] ? "[" + item.src[i] + "] " + d : d);
          ol.appendChild(li);
        });
        det.appendChild(ol);
        art.appendChild(det);
      }
      var table = el("table", "lb-answers");
      var body = el("tbody");
      ids.forEach(function (id) {
        var p = item.preds[id];
        var tr = el("tr");
        tr.dataset.model = id;
        tr.appendChild(el("th", null, names[id] || id));
        var v = p[mode.value];
        var state = v === 1 ? "pass" : v === 0 ? "fail" : "unscored";
        var td = el("td");
        td.appendChild(el("span", "lb-badge lb-" + state, t(state)));
        tr.appendChild(td);
        var shown = p.e || p.t;
        var full = p.e ? p.en : p.tn;  // set when the page holds only the start of a long text
        var out = el("td", "lb-output", p.e ? t("generation_error", { error: p.e }) : shown);
        if (full) {
          out.appendChild(el("span", "lb-clipped", t("clipped", {
            shown: shown.length.toLocaleString("en-US"), total: full.toLocaleString("en-US") })));
        }
        if (mode.value === "strict" && v === 0 && p.w) out.appendChild(why(p.w));
        tr.appendChild(out);
        body.appendChild(tr);
      });
      table.appendChild(body);
      var wrap = el("div", "lb-scroll");
      wrap.appendChild(table);
      art.appendChild(wrap);
      return art;
    }

    // why strict said no: the rule, then each answer element's status (text nodes only)
    var WHY_KEYS = {
      not_found: "why_not_found", negated: "why_negated", fake_answer: "why_fake_answer",
      copy: "why_copy", candidate_list: "why_candidate_list", hedge: "why_hedge",
      refusal: "why_refusal", no_refusal: "why_no_refusal", no_error_claim: "why_no_error_claim"
    };
    var ELEMENT_KEYS = {
      matched: "el_matched", not_found: "el_not_found", negated: "el_negated",
      fake_answer: "el_fake_answer"
    };
    function why(w) {
      var box = el("div", "lb-why", t("why", { rule: t(WHY_KEYS[w.r] || "why_not_found") }));
      var ul = el("ul");
      (w.el || []).forEach(function (e) {
        var status = t(ELEMENT_KEYS[e[1]] || "el_not_found");
        var line = e[0] + ": " + status + (e[2] ? " (… " + e[2] + " …)" : "");
        ul.appendChild(el("li", null, line));
      });
      box.appendChild(ul);
      return box;
    }

    function render() {
      var mine = ++ticket;
      var q = search.value.trim().toLowerCase();
      var filtered = q !== "" || model.value !== "" || outcome.value !== "all";
      if (loaded < doc.parts.length) count.textContent = t("loading");
      loadMore(filtered ? Infinity : limit).then(function () {
        if (mine === ticket) draw(q, filtered);
      }, function (err) {
        count.textContent = t("load_error", { error: err.message });
      });
    }

    function draw(q, filtered) {
      var matches = [];
      items.forEach(function (item) {
        var ids = (model.value ? [model.value] : doc.models.map(function (m) { return m.id; }))
          .filter(function (id) { return item.preds[id] && keep(item.preds[id]); });
        if (!ids.length) return;
        if (q) {
          var hay = ["#" + item.id, item.key, item.q || "", (item.a || []).join(" ")]
            .concat(ids.map(function (id) { return item.preds[id].t; })).join("\n").toLowerCase();
          if (/^#\d+$/.test(q)) {  // "#12": question 12 only (the errata page links so)
            if ("#" + item.id !== q) return;
          } else if (hay.indexOf(q) === -1 && String(item.id) !== q) return;
        }
        matches.push([item, ids]);
      });
      var total = doc.n_items;
      count.textContent = t(total === 1 ? "count_one" : "count",
        { shown: filtered ? matches.length : total, total: total });
      list.replaceChildren();
      matches.slice(0, limit).forEach(function (m) { list.appendChild(card(m[0], m[1])); });
      more.hidden = (filtered ? matches.length : total) <= limit;
    }

    [search, model, outcome, mode].forEach(function (c) {
      c.addEventListener(c === search ? "input" : "change", function () { limit = 25; render(); });
    });
    more.addEventListener("click", function () { limit += 25; render(); });
    // a link to one question: page.html#q=%2312 opens with the search "#12"
    var linked = /^#q=(.+)$/.exec(window.location.hash);
    if (linked) search.value = decodeURIComponent(linked[1]);
    render();
  }

  function start() {
    initTables(document);
    initBrowser();
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(start);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
