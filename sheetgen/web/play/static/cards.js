// The card games' page: a tap on a ringed room records the move; each phone plays as one
// player (?as=NAME, remembered by the phone); the page follows the table without a reload
// (follow.js: it waits on the server's long poll and redraws itself when another player acts).
(function () {
  "use strict";
  var body = document.body;
  var gid = body.dataset.game;
  var seatKey = "sheetgen-seat-" + gid;
  var asked = new URLSearchParams(location.search).get("as");
  try { if (asked) localStorage.setItem(seatKey, asked); } catch (e) { /* private mode: this page only */ }
  var seat = asked;
  try { seat = seat || localStorage.getItem(seatKey); } catch (e) { /* none kept */ }

  function applySeat() {
    var el = document.getElementById("seat");
    var turn = body.dataset.turn;
    var watching = !!(seat && turn && seat !== turn && !body.dataset.over);
    body.classList.toggle("watching", watching);
    if (!el) return;
    if (seat) {
      el.hidden = false;
      el.textContent = watching ? "You play " + seat + ". It is " + turn + "'s turn: this page follows the table."
        : "You play " + seat + ".";
    }
  }

  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.card-target");
    if (!a) return;
    ev.preventDefault();
    var tap = document.getElementById("card-tap-form");
    if (!tap || body.classList.contains("watching")) return;
    tap.elements.step.value = a.dataset.step;
    tap.submit();
  });

  function refresh() {
    // the page drawn again in place (no reload): the version it shows is returned
    return fetch("/g/" + gid, {cache: "no-store", credentials: "same-origin"}).then(function (r) {
      if (!r.ok) throw new Error("page: HTTP " + r.status);
      return r.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var open = Array.prototype.map.call(document.querySelectorAll("details[open]"), function (d) { return d.id; });
      ["data-steps", "data-turn", "data-over", "data-version"].forEach(function (k) {
        body.setAttribute(k, doc.body.getAttribute(k) || "");
      });
      body.innerHTML = doc.body.innerHTML;
      open.forEach(function (id) { var d = id && document.getElementById(id); if (d) d.open = true; });
      applySeat();
      return body.dataset.version;
    });
  }
  applySeat();
  // another player's action reaches this page as soon as it is recorded (follow.js: a long poll)
  window.sheetgenFollow(gid, body.dataset.version || "", refresh);
})();
