// Shows whether a page's live feed is connected, and keeps live lists short.
(function () {
  function mark(event, state, text) {
    var el = event.target.closest('[data-live]') || event.target;
    el.setAttribute('data-live', state);
    var label = el.querySelector('[data-live-state]');
    if (label) { label.textContent = text; }
  }
  document.addEventListener('htmx:sseOpen', function (e) { mark(e, 'open', 'live'); });
  document.addEventListener('htmx:sseError', function (e) { mark(e, 'error', 'reconnecting…'); });
  document.addEventListener('htmx:sseClose', function (e) { mark(e, 'closed', 'offline'); });
  document.addEventListener('htmx:afterSwap', function (e) {
    var ticker = document.getElementById('ticker');
    if (ticker && e.target === ticker) {
      while (ticker.children.length > 50) { ticker.removeChild(ticker.lastElementChild); }
    }
  });
})();
