// The portal page's script, served at /portal/assets/portal.js (same origin; the CSP allows no
// inline script). Plain ES2017 in a String.raw literal: no backtick, no dollar-brace.
//
// Every action is a <form data-action data-nonce>: the script sends it as JSON to the form's
// action URL with the session's CSRF token (X-CSRF-Token) and the form's one-time key
// (Idempotency-Key), so a double click or a resubmission is the same request, answered once.
// On success the page reloads (showing the new state); an error is shown next to the form. The
// card form is checked here first (Luhn, expiry, CVC length) and again on the server.
export const PORTAL_JS = String.raw`(function () {
  'use strict';
  var cfgEl = document.getElementById('portal-config');
  if (!cfgEl) return;
  var cfg = JSON.parse(cfgEl.textContent || '{}');
  var M = cfg.messages || {};
  function t(k) { return Object.prototype.hasOwnProperty.call(M, k) ? M[k] : k; }
  function $(id) { return document.getElementById(id); }

  function digitsOf(v) { var d = String(v || '').replace(/[\s-]/g, ''); return /^\d+$/.test(d) ? d : null; }
  function luhn(d) {
    var sum = 0, dbl = false;
    for (var i = d.length - 1; i >= 0; i--) { var n = d.charCodeAt(i) - 48; if (dbl) { n *= 2; if (n > 9) n -= 9; } sum += n; dbl = !dbl; }
    return sum % 10 === 0;
  }
  function parseExpiry(v) {
    var m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(String(v || ''));
    if (!m) return null;
    var month = Number(m[1]), year = Number(m[2]);
    if (year < 100) year += 2000;
    if (month < 1 || month > 12) return null;
    return { month: month, year: year };
  }
  function expired(e) { var n = new Date(), y = n.getUTCFullYear(), mo = n.getUTCMonth() + 1; return e.year < y || (e.year === y && e.month < mo); }

  function showError(form, message) {
    var el = form.querySelector('.form-error');
    if (el) { el.textContent = message; el.hidden = false; }
  }
  function fieldError(id, message) {
    var el = $(id + '-error');
    if (!el) return;
    el.textContent = message || '';
    el.hidden = !message;
    var input = $(id);
    if (input) input.setAttribute('aria-invalid', message ? 'true' : 'false');
  }
  function clearErrors(form) {
    var list = form.querySelectorAll('.form-error, .field-error');
    for (var i = 0; i < list.length; i++) { list[i].hidden = true; list[i].textContent = ''; }
  }

  function send(form, body) {
    var button = form.querySelector('button[type=submit]');
    if (form.getAttribute('data-busy') === '1') return;
    form.setAttribute('data-busy', '1');
    if (button) button.disabled = true;
    clearErrors(form);
    fetch(form.getAttribute('data-action'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': cfg.csrf, 'Idempotency-Key': form.getAttribute('data-nonce') },
      body: JSON.stringify(body || {})
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (data) { return { status: res.status, data: data }; });
    }).then(function (r) {
      if (r.status >= 200 && r.status < 300 && r.data && r.data.ok) {
        if (r.data.redirect) { window.location.assign(r.data.redirect); return; }
        var notice = r.data.notice ? '?notice=' + encodeURIComponent(r.data.notice) : '';
        window.location.assign('/portal' + notice);
        return;
      }
      form.removeAttribute('data-busy');
      if (button) button.disabled = false;
      // A refused action changed nothing, and its answer is kept under the form's key: the next
      // try (e.g. another card after a decline) is a new request with a new key.
      form.setAttribute('data-nonce', newNonce());
      if (r.status === 401 || r.status === 410) { showError(form, t('session_ended')); return; }
      var err = (r.data && r.data.error) || {};
      if (err.param && $('bd-' + err.param)) fieldError('bd-' + err.param, err.message);
      else showError(form, err.message || t('error_generic'));
    }).catch(function () {
      form.removeAttribute('data-busy');
      if (button) button.disabled = false;
      showError(form, t('error_generic'));
    });
  }

  function newNonce() {
    var bytes = new Uint8Array(18);
    window.crypto.getRandomValues(bytes);
    var out = '';
    for (var i = 0; i < bytes.length; i++) out += ('0' + bytes[i].toString(16)).slice(-2);
    return out;
  }

  function collect(form) {
    var body = {};
    var inputs = form.querySelectorAll('[data-field]');
    for (var i = 0; i < inputs.length; i++) body[inputs[i].getAttribute('data-field')] = inputs[i].value;
    return body;
  }

  function cardBody() {
    var ok = true;
    var number = digitsOf($('card-number').value);
    if (!number || number.length < 12 || number.length > 19 || !luhn(number)) { fieldError('card-number', t('err_number')); ok = false; } else fieldError('card-number', '');
    var exp = parseExpiry($('card-expiry').value);
    if (!exp) { fieldError('card-expiry', t('err_expiry')); ok = false; }
    else if (expired(exp)) { fieldError('card-expiry', t('err_expired')); ok = false; }
    else fieldError('card-expiry', '');
    var cvc = String($('card-cvc').value || '').trim();
    var amex = number && /^3[47]/.test(number);
    if (!/^\d+$/.test(cvc) || cvc.length !== (amex ? 4 : 3)) { fieldError('card-cvc', t('err_cvc')); ok = false; } else fieldError('card-cvc', '');
    if (!ok) return null;
    var name = String($('card-name').value || '').trim();
    return { card: { number: number, exp_month: exp.month, exp_year: exp.year, cvc: cvc, name: name || null }, make_default: $('card-default').checked };
  }

  var number = $('card-number');
  if (number) number.addEventListener('input', function () {
    var d = number.value.replace(/\D/g, '').slice(0, 19);
    number.value = d.replace(/(.{4})(?=.)/g, '$1 ');
  });

  var forms = document.querySelectorAll('form[data-action]');
  for (var i = 0; i < forms.length; i++) {
    forms[i].addEventListener('submit', function (e) {
      e.preventDefault();
      var form = e.currentTarget;
      var confirmText = form.getAttribute('data-confirm');
      if (confirmText && !window.confirm(confirmText)) return;
      if (form.id === 'card-form') {
        var body = cardBody();
        if (body) send(form, body);
        return;
      }
      send(form, collect(form));
    });
  }
})();
`;
