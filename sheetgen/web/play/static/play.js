// The companion page's little JavaScript: a tap on a ringed cell records the move at once
// (or opens the die when you roll your own), and the fight panel shows its totals as you
// choose.  Everything also works without it (links and forms).
(function () {
  "use strict";
  var body = document.body;
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.target");
    var tap = document.getElementById("tap-form");
    if (!a || !tap) return;
    if (a.dataset.die && body.dataset.dice !== "auto") return;   // the die panel asks for it
    if (!body.dataset.dice && a.dataset.die) return;
    ev.preventDefault();
    tap.elements.step.value = a.dataset.step;
    tap.submit();
  });
  function init() {
  // the map: around the hero on a phone, whole on a wide screen; the button swaps them
  var map = document.getElementById("map"), zoom = document.getElementById("zoom");
  // the numbers drawn along the zoomed view's edges are hidden on the whole map (it has its own)
  var whole = function () { if (map) map.classList.toggle("whole", map.getAttribute("viewBox") === map.dataset.whole); };
  if (map && window.matchMedia && window.matchMedia("(min-width: 900px)").matches) {
    map.setAttribute("viewBox", map.dataset.whole);
    if (zoom) { var t = zoom.textContent; zoom.textContent = zoom.dataset.other; zoom.dataset.other = t; }
  }
  whole();
  if (zoom) zoom.addEventListener("click", function () {
    var now = map.getAttribute("viewBox");
    map.setAttribute("viewBox", now === map.dataset.whole ? map.dataset.near : map.dataset.whole);
    var t = zoom.textContent; zoom.textContent = zoom.dataset.other; zoom.dataset.other = t;
    whole();
  });
  // a fight started (or goes on): its panel is brought into view on a phone, where it sits under
  // the map; the map and what to pencil are a scroll up
  var fightBox = document.getElementById("fight") || document.getElementById("duel");
  if (fightBox && !following && !(window.matchMedia && window.matchMedia("(min-width: 900px)").matches)) {
    fightBox.scrollIntoView({block: "start"});
  }
  var fight = document.getElementById("fight-form");
  if (fight) {
    var box = document.getElementById("fight");
    var out = document.getElementById("fight-total");
    var value = function (name) {
      var el = fight.querySelector('[name="' + name + '"]:checked') || fight.querySelector('input[type=hidden][name="' + name + '"]');
      return el ? parseInt(el.value, 10) : null;
    };
    var update = function () {
      var hero = value("hero"), enemy = value("enemy");
      var clover = fight.elements.clover ? fight.elements.clover.value : "";
      var reroll = value("clover_roll");
      if (clover === "hero" && reroll) hero = reroll;
      if (clover === "enemy" && reroll) enemy = reroll;
      if (hero === null || enemy === null) {
        out.textContent = "";
        if (fight.elements.shield) fight.elements.shield.closest("label").hidden = false;
        return;
      }
      var weapon = fight.elements.weapon && fight.elements.weapon.checked ? parseInt(box.dataset.weapon, 10) : 0;
      var mine = hero + weapon, theirs = enemy + parseInt(box.dataset.strength, 10);
      // the shield blocks a hit: offered only when the dice say it is one
      var shieldBox = fight.elements.shield;
      if (shieldBox) {
        var hit = mine < theirs;
        shieldBox.closest("label").hidden = !hit;
        if (!hit) shieldBox.checked = false;
      }
      var shield = shieldBox && shieldBox.checked;
      var what = mine > theirs ? "you win" : mine === theirs ? "a tie" :
        (shield ? "a hit of " + (theirs - mine) + ", blocked by the shield" : "you lose " + (theirs - mine) + " heart(s)");
      out.textContent = "you " + mine + " against " + theirs + ": " + what;
    };
    var reroll = fight.querySelector(".clover-roll");
    var showReroll = function () {
      if (reroll) reroll.hidden = !(fight.elements.clover && fight.elements.clover.value);
    };
    fight.addEventListener("change", function () { showReroll(); update(); });
    showReroll();
    update();
  }
  }
  // several players, a phone each: the page follows the table without a reload (it polls the
  // game's small version document and redraws itself, as this phone's player, when it changes)
  var following = false;
  init();
  if (!body.dataset.follow) return;
  var gid = body.dataset.game, baseline = null, busy = false;
  function refresh() {
    busy = true;
    var seat = body.dataset.seat;
    return fetch("/g/" + gid + (seat ? "?as=" + encodeURIComponent(seat) : ""),
                 {cache: "no-store", credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      if (!html) return;
      var doc = new DOMParser().parseFromString(html, "text/html");
      ["data-steps", "data-seat", "data-dice", "class"].forEach(function (k) {
        body.setAttribute(k, doc.body.getAttribute(k) || "");
      });
      body.innerHTML = doc.body.innerHTML;
      following = true;
      init();
    }).finally(function () { busy = false; });
  }
  function poll() {
    if (busy) return;
    fetch("/g/" + gid + "/version", {cache: "no-store", credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (v) {
      if (!v) return;
      if (baseline === null) {
        baseline = v.version;
        if (String(v.steps) !== body.dataset.steps) refresh();
      } else if (v.version !== baseline) {
        baseline = v.version;
        refresh();
      }
    }).catch(function () { /* the server is away: try again */ });
  }
  poll();
  setInterval(poll, 1000);
})();
