// embed.js, served at /checkout/embed.js for merchants' pages: BillingCheckout.mount(el, {
// clientSecret, onComplete }) adds an iframe of /checkout/embedded?parent_origin=<page origin>,
// hands the client secret to the frame by postMessage when the frame says it is ready (never in
// a URL), resizes it, and relays completion to onComplete and a `billing:checkout-complete` DOM
// event. Messages are accepted only from the frame's window at the service's origin.
// Plain ES2017 in a String.raw literal: no backtick, no dollar-brace.
export const EMBED_JS = String.raw`(function () {
  'use strict';
  // The checkout service's origin is where this script was loaded from.
  var script = document.currentScript;
  var serviceOrigin = script && script.src ? new URL(script.src).origin : null;

  function mount(target, options) {
    if (!serviceOrigin) throw new Error('BillingCheckout: load embed.js with a <script src> tag from the checkout service');
    var el = typeof target === 'string' ? document.querySelector(target) : target;
    if (!el) throw new Error('BillingCheckout.mount: no element ' + String(target));
    if (!options || typeof options.clientSecret !== 'string' || options.clientSecret.indexOf('pcs_') !== 0) {
      throw new Error('BillingCheckout.mount: options.clientSecret (pcs_...) is required');
    }
    var iframe = document.createElement('iframe');
    // The secret is NOT in the URL: it is posted to the frame once the frame says it is ready.
    iframe.src = serviceOrigin + '/checkout/embedded?parent_origin=' + encodeURIComponent(window.location.origin);
    iframe.title = options.title || 'Checkout';
    iframe.setAttribute('allow', 'payment');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    iframe.style.border = '0';
    iframe.style.width = '100%';
    iframe.style.minHeight = '420px';
    iframe.style.colorScheme = 'light';
    var sent = false;

    function onMessage(ev) {
      if (ev.source !== iframe.contentWindow || ev.origin !== serviceOrigin) return;
      var d = ev.data || {};
      if (d.type === 'billing.checkout.ready' && !sent) {
        sent = true;
        iframe.contentWindow.postMessage({ type: 'billing.checkout.init', clientSecret: options.clientSecret }, serviceOrigin);
      } else if (d.type === 'billing.checkout.resize' && typeof d.height === 'number' && d.height > 0) {
        iframe.style.height = Math.ceil(Math.min(d.height, 4000)) + 'px';
      } else if (d.type === 'billing.checkout.complete') {
        var detail = { sessionId: d.session_id, status: d.status, payment: d.payment, paymentStatus: d.payment_status };
        if (typeof options.onComplete === 'function') options.onComplete(detail);
        el.dispatchEvent(new CustomEvent('billing:checkout-complete', { detail: detail, bubbles: true }));
      }
    }
    window.addEventListener('message', onMessage);
    el.appendChild(iframe);
    return {
      iframe: iframe,
      unmount: function () {
        window.removeEventListener('message', onMessage);
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
      }
    };
  }

  window.BillingCheckout = { mount: mount };
})();
`;
