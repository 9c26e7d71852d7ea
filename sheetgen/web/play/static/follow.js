// Follow a game's table from a page (several phones at one table): sheetgenFollow(gid, version,
// moved) asks the server's long poll /g/GID/wait?after=VERSION, which answers as soon as another
// player acts (or after ~25 s: ask again); moved(answer) is called with the new version and
// returns a promise of the version the page now shows (the page redrawn), waited after next.
// When a wait fails (the server restarting, too many waits: 503) the page polls /g/GID/version
// once a second for a while, then tries the wait again.
(function () {
  "use strict";
  window.sheetgenFollow = function (gid, version, moved) {
    var base = "/g/" + gid;
    var opts = {cache: "no-store", credentials: "same-origin"};

    function changed(v) {
      // the page redrawn: the version it shows is waited after next (the answer's when the page
      // could not say, so an answer is never asked twice in a row); a failed redraw rejects
      return Promise.resolve(moved(v)).then(function (shown) {
        version = shown && shown !== version ? shown : v.version;
      });
    }

    function poll(times) {
      // the fallback: the small version document, once a second, TIMES times
      if (times <= 0) return wait();
      setTimeout(function () {
        fetch(base + "/version", opts).then(function (r) { return r.ok ? r.json() : null; })
          .then(function (v) { return v && v.version !== version ? changed(v) : null; })
          .catch(function () { /* the server is away, or the page was not redrawn: again */ })
          .then(function () { poll(times - 1); });
      }, 1000);
    }

    function wait() {
      fetch(base + "/wait?after=" + encodeURIComponent(version), opts).then(function (r) {
        if (!r.ok) throw new Error("wait: HTTP " + r.status);
        return r.json();
      }).then(function (v) {
        return (v.version !== version ? changed(v) : Promise.resolve()).then(wait);
      }).catch(function () { poll(10); });
    }

    wait();
  };
})();
