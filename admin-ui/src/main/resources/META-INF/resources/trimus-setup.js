// The setup link's secret is in the URL fragment (never sent to a server): copy it into the form, then take it out of
// the address bar and the history. It is never logged.
(function () {
  var field = document.getElementById('setup-token');
  var secret = window.location.hash ? window.location.hash.substring(1) : '';
  if (secret) {
    field.value = secret;
    history.replaceState(null, '', window.location.pathname);
  }
  if (!field.value) {
    document.getElementById('setup-missing').hidden = false;
  }
})();
