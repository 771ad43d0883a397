/* Shared behaviour of every Meridian page: consent banner, lazy ads, reading progress. */
(function () {
  function hideConsent() {
    var el = document.getElementById('cookie-consent') || document.getElementById('cookiebar') || document.getElementById('ck');
    if (el) { el.style.display = 'none'; }
    try { localStorage.setItem('mp_consent', '1'); } catch (e) {}
  }
  window.acceptCookies = function () { hideConsent(); return false; };
  document.addEventListener('click', function (ev) {
    if (ev.target && ev.target.getAttribute && ev.target.getAttribute('data-consent')) { hideConsent(); }
  });
  try { if (localStorage.getItem('mp_consent')) { document.addEventListener('DOMContentLoaded', hideConsent); } } catch (e) {}
  window.mpAds = window.mpAds || [];
})();
