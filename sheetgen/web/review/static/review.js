// The review page: a tap on a region of the sheet posts its flip (the list's buttons work without this);
// the zoom toggles a 3x sheet to scroll, kept across the page's reloads.
(function () {
  var frame = document.getElementById('frame'), zoom = document.getElementById('zoom');
  var form = document.getElementById('tap'), svg = frame && frame.querySelector('svg');
  function setZoom(on) {
    frame.classList.toggle('zoomed', on);
    zoom.setAttribute('aria-pressed', on ? 'true' : 'false');
    zoom.textContent = on ? 'Zoom out' : 'Zoom in';
  }
  if (!frame || !form) return;
  setZoom(sessionStorage.getItem('review-zoom') === '1');
  var at = sessionStorage.getItem('review-scroll');
  if (at && location.hash === '#sheet') {
    var xy = at.split(',');
    frame.scrollLeft = +xy[0]; frame.scrollTop = +xy[1];
  }
  zoom.addEventListener('click', function () {
    var on = !frame.classList.contains('zoomed');
    sessionStorage.setItem('review-zoom', on ? '1' : '0');
    setZoom(on);
  });
  svg.addEventListener('click', function (e) {
    var n = e.target.getAttribute && e.target.getAttribute('data-n');
    if (n === null || n === undefined) return;
    sessionStorage.setItem('review-scroll', frame.scrollLeft + ',' + frame.scrollTop);
    form.elements.n.value = n;
    form.submit();
  });
})();
