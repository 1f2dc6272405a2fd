// The script of the hosted and embedded checkout pages, served at /checkout/assets/checkout.js
// (same origin; the CSP allows no inline script). Plain ES2017 in a String.raw literal: it must
// not contain a backtick or a dollar-brace. test/api/payment-sessions/checkout-assets.test.ts
// parses it.
//
// Hosted: validates the card client-side (Luhn, expiry, CVC length), posts it as JSON to
// /checkout/api/sessions/<id>/confirm, shows a decline's reason and lets the customer retry, and
// on success follows redirect_url (return_url with session_id).
// Embedded: tells the embedding page it is ready (postMessage to the declared parent origin),
// takes the client secret from the mounting script (embed.js) by postMessage, checks it came from
// that origin, loads the session, and on success posts the completion to the session's exact
// origin, never '*'.
export const CHECKOUT_JS = String.raw`(function () {
  'use strict';

  var cfgEl = document.getElementById('checkout-config');
  if (!cfgEl) return;
  var cfg = JSON.parse(cfgEl.textContent || '{}');
  var M = cfg.messages || {};
  var state = { busy: false, secret: null, session: null, wallet: null };

  function $(id) { return document.getElementById(id); }
  function t(key) { return Object.prototype.hasOwnProperty.call(M, key) ? M[key] : key; }

  // ---- client-side card checks (the server checks the same again) ----
  function digitsOf(value) {
    var d = String(value || '').replace(/[\s-]/g, '');
    return /^\d+$/.test(d) ? d : null;
  }
  function luhn(d) {
    var sum = 0, dbl = false;
    for (var i = d.length - 1; i >= 0; i--) {
      var n = d.charCodeAt(i) - 48;
      if (dbl) { n *= 2; if (n > 9) n -= 9; }
      sum += n; dbl = !dbl;
    }
    return sum % 10 === 0;
  }
  function isAmex(d) { return /^3[47]/.test(d); }
  function parseExpiry(value) {
    var m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(String(value || ''));
    if (!m) return null;
    var month = Number(m[1]);
    var year = Number(m[2]);
    if (year < 100) year += 2000;
    if (month < 1 || month > 12) return null;
    return { month: month, year: year };
  }
  function expired(exp) {
    var now = new Date();
    var y = now.getUTCFullYear(), mo = now.getUTCMonth() + 1;
    return exp.year < y || (exp.year === y && exp.month < mo);
  }
  function validEmail(v) {
    return /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/.test(String(v || '').trim());
  }

  // ---- messages ----
  function setFieldError(id, message) {
    var input = $(id), err = $(id + '-error');
    if (input) input.setAttribute('aria-invalid', message ? 'true' : 'false');
    if (err) { err.textContent = message || ''; err.hidden = !message; }
  }
  function clearErrors() {
    ['email', 'card-number', 'card-expiry', 'card-cvc'].forEach(function (id) { setFieldError(id, ''); });
    showFormError('');
  }
  function showFormError(message) {
    var el = $('form-error');
    if (!el) return;
    el.textContent = message || '';
    el.hidden = !message;
  }
  function declineText(code) {
    var key = 'decline_' + code;
    return Object.prototype.hasOwnProperty.call(M, key) ? M[key] : t('decline_generic');
  }

  // ---- formatting as the customer types ----
  function formatNumberInput() {
    var el = $('card-number');
    if (!el) return;
    el.addEventListener('input', function () {
      var d = el.value.replace(/\D/g, '').slice(0, 19);
      var groups = isAmex(d) ? [4, 6, 5] : [4, 4, 4, 4, 3];
      var out = [], pos = 0;
      for (var i = 0; i < groups.length && pos < d.length; i++) { out.push(d.slice(pos, pos + groups[i])); pos += groups[i]; }
      el.value = out.join(' ');
    });
    var exp = $('card-expiry');
    if (exp) {
      exp.addEventListener('input', function (ev) {
        var d = exp.value.replace(/\D/g, '').slice(0, 4);
        if (ev.inputType === 'deleteContentBackward') return;
        exp.value = d.length > 2 ? d.slice(0, 2) + '/' + d.slice(2) : d.length === 2 ? d + '/' : d;
      });
    }
  }

  function readEmail() {
    var el = $('email');
    var v = el ? el.value.trim() : '';
    if (!validEmail(v)) { setFieldError('email', t('err_email')); return null; }
    return v;
  }

  function readCard() {
    var ok = true;
    var d = digitsOf($('card-number').value);
    if (!d || d.length < 12 || d.length > 19 || !luhn(d)) { setFieldError('card-number', t('err_number')); ok = false; }
    var exp = parseExpiry($('card-expiry').value);
    if (!exp) { setFieldError('card-expiry', t('err_expiry')); ok = false; }
    else if (expired(exp)) { setFieldError('card-expiry', t('err_expired')); ok = false; }
    var cvc = $('card-cvc').value.trim();
    var cvcLen = d && isAmex(d) ? 4 : 3;
    if (!new RegExp('^\\d{' + cvcLen + '}$').test(cvc)) { setFieldError('card-cvc', t('err_cvc')); ok = false; }
    if (!ok) return null;
    var name = $('card-name') ? $('card-name').value.trim() : '';
    return { number: d, exp_month: exp.month, exp_year: exp.year, cvc: cvc, name: name || null };
  }

  function setBusy(busy) {
    state.busy = busy;
    var btn = $('pay-button');
    if (btn) {
      btn.disabled = busy;
      $('pay-label').textContent = busy ? t('processing') : t('pay');
      $('pay-amount').hidden = busy;
    }
    document.querySelectorAll('.wallet, #wallet-confirm').forEach(function (b) { b.disabled = busy; });
    var main = $('checkout');
    if (main) main.setAttribute('data-state', busy ? 'processing' : 'ready');
  }

  // ---- talking to the service ----
  function post(url, body) {
    return fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer'
    }).then(function (res) {
      return res.json().then(function (json) { return { status: res.status, body: json }; }, function () { return { status: res.status, body: null }; });
    });
  }

  function pay(method, card) {
    if (state.busy) return;
    clearErrors();
    var email = readEmail();
    if (!email) return;
    var save = $('save-card');
    var body = {
      method: method,
      email: email,
      card: card,
      save_payment_method: !!(save && !$('save-row').hidden && save.checked)
    };
    if (cfg.mode === 'embedded') { body.client_secret = state.secret; body.parent_origin = cfg.parentOrigin; }
    setBusy(true);
    post(cfg.confirmUrl, body).then(function (res) {
      var b = res.body || {};
      if (res.status === 200 && b.outcome === 'succeeded') return succeeded(b);
      setBusy(false);
      if (res.status === 200 && b.outcome === 'declined') { showFormError(declineText(b.decline_code)); return; }
      var err = b.error || {};
      if (err.code === 'validation_failed' && err.param) {
        var map = { 'card.number': ['card-number', 'err_number'], 'card.expiry': ['card-expiry', 'err_expiry'], 'card.cvc': ['card-cvc', 'err_cvc'], email: ['email', 'err_email'] };
        var hit = map[err.param];
        if (hit && $(hit[0])) { setFieldError(hit[0], t(hit[1])); return; }
      }
      if (err.code === 'invalid_state' || err.code === 'resource_missing') {
        if (cfg.mode === 'hosted') { window.location.reload(); return; }
        showFormError(t('error_closed'));
        return;
      }
      if (res.status === 503) { showFormError(t('error_unavailable')); return; }
      showFormError(t('error_generic'));
    }, function () {
      setBusy(false);
      showFormError(t('error_generic'));
    });
  }

  function succeeded(b) {
    $('pay-panel').hidden = true;
    $('done').hidden = false;
    var main = $('checkout');
    if (main) main.setAttribute('data-state', 'complete');
    if (cfg.mode === 'hosted') {
      $('done-text').textContent = t('redirecting');
      if (b.redirect_url) window.location.assign(b.redirect_url);
      return;
    }
    // Embedded: tell the embedding page, and only it (its exact origin, never '*').
    window.parent.postMessage({ type: 'billing.checkout.complete', session_id: b.session_id, status: b.status, payment: b.payment, payment_status: b.payment_status }, state.session.origin);
    reportHeight();
  }

  // ---- wallets (simulated in test mode) ----
  function wireWallets() {
    document.querySelectorAll('.wallet').forEach(function (btn) {
      btn.addEventListener('click', function () {
        if (state.busy) return;
        clearErrors();
        state.wallet = btn.getAttribute('data-wallet');
        $('wallet-name').textContent = btn.textContent;
        $('wallet-sheet').hidden = false;
        $('wallet-card').focus();
        reportHeight();
      });
    });
    var back = $('wallet-back');
    if (back) back.addEventListener('click', function () { $('wallet-sheet').hidden = true; state.wallet = null; reportHeight(); });
    var confirmBtn = $('wallet-confirm');
    if (confirmBtn) confirmBtn.addEventListener('click', function () {
      if (!state.wallet) return;
      var year = new Date().getUTCFullYear() + 3;
      pay(state.wallet, { number: $('wallet-card').value, exp_month: 12, exp_year: year, cvc: null, name: null });
    });
  }

  function wireForm() {
    var form = $('card-form');
    if (!form) return;
    formatNumberInput();
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      if (state.busy) return;
      clearErrors();
      var emailOk = readEmail();
      var card = readCard();
      if (!emailOk || !card) return;
      pay('card', card);
    });
  }

  // ---- embedded: the secret comes from the mounting script by postMessage ----
  function reportHeight() {
    if (cfg.mode !== 'embedded' || !cfg.parentOrigin) return;
    window.parent.postMessage({ type: 'billing.checkout.resize', height: document.documentElement.scrollHeight }, cfg.parentOrigin);
  }

  function applyMessages() {
    document.querySelectorAll('[data-i18n]').forEach(function (el) {
      var key = el.getAttribute('data-i18n');
      if (Object.prototype.hasOwnProperty.call(M, key)) el.textContent = M[key];
    });
    document.documentElement.lang = cfg.locale;
  }

  function showNotice(titleKey, bodyKey) {
    $('loading').hidden = true;
    $('content').hidden = true;
    $('notice').hidden = false;
    $('notice-title').textContent = t(titleKey);
    $('notice-body').textContent = t(bodyKey);
    $('checkout').setAttribute('data-state', 'notice');
    reportHeight();
  }

  function loadEmbedded() {
    post('/checkout/api/embedded/session', { client_secret: state.secret, parent_origin: cfg.parentOrigin }).then(function (res) {
      var s = res.body || {};
      if (res.status !== 200) {
        showNotice('not_found_title', 'not_found_body');
        return;
      }
      state.session = s;
      if (s.messages) { M = s.messages; cfg.locale = s.locale; applyMessages(); }
      if (s.status === 'complete') { showNotice('complete_title', 'complete_body'); return; }
      if (s.status === 'expired') { showNotice('expired_title', 'expired_body'); return; }
      if (s.status !== 'open') { showNotice('closed_title', 'closed_body'); return; }
      $('merchant-name').textContent = s.merchant_name;
      $('merchant-initial').textContent = (s.merchant_name || '').trim().charAt(0).toUpperCase();
      $('amount').textContent = s.amount_label;
      $('pay-amount').textContent = s.amount_label;
      $('test-badge').hidden = !s.test_mode;
      $('description').textContent = s.description || '';
      $('description').hidden = !s.description;
      if (s.customer_email) $('email').value = s.customer_email;
      var methods = s.enabled_methods || [];
      var wallets = methods.filter(function (m) { return m !== 'card' && s.test_mode; });
      ['apple_pay', 'google_pay'].forEach(function (w) { var b = $('pay-' + w); if (b) b.hidden = wallets.indexOf(w) < 0; });
      $('wallets').hidden = wallets.length === 0;
      $('or-card').hidden = methods.indexOf('card') < 0;
      $('card-form').hidden = methods.indexOf('card') < 0;
      $('save-row').hidden = !s.save_payment_method;
      $('loading').hidden = true;
      $('content').hidden = false;
      $('checkout').setAttribute('data-state', 'ready');
      reportHeight();
    }, function () { showNotice('not_found_title', 'not_found_body'); });
  }

  function startEmbedded() {
    var parentOrigin = cfg.parentOrigin;
    if (!parentOrigin || window.parent === window) { showNotice('not_found_title', 'not_found_body'); return; }
    window.addEventListener('message', function (ev) {
      if (ev.source !== window.parent || ev.origin !== parentOrigin) return;
      var d = ev.data;
      if (!d || d.type !== 'billing.checkout.init' || typeof d.clientSecret !== 'string' || state.secret) return;
      state.secret = d.clientSecret;
      loadEmbedded();
    });
    if (typeof ResizeObserver === 'function') new ResizeObserver(reportHeight).observe(document.body);
    window.parent.postMessage({ type: 'billing.checkout.ready' }, parentOrigin);
  }

  wireForm();
  wireWallets();
  if (cfg.mode === 'embedded') startEmbedded();
})();
`;
