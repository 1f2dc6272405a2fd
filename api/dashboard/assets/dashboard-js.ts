// The dashboard's one script (served at /dashboard/assets/dashboard.js; no inline script). Every
// page works without it; it adds: a confirmation before destructive actions, a "working…" state
// on forms that take a while (payments, retries), the charts (Chart.js, served by this service
// from node_modules, reading each chart's data from a JSON <script> block), and the progress of
// a running accounting sync (polled from the dashboard's own JSON, connect-src 'self').
import { formatMinorUnits } from '../../../src/billing/money-format';

/**
 * The charts' money formatter: src/billing/money-format.ts's `formatMinorUnits`, the server's own
 * formatter, served as its compiled text and fed the currency's style (displayStyleOf) from the
 * chart's JSON, so axes, tooltips and figures read as the pages do ("4.990 kr.", "10.000 kr.",
 * "€19.90"). A chart value is in major units: `money` rounds it to minor units first.
 * test/unit/dashboard/chart-money.test.ts runs this very text against formatAmount.
 */
export const CHART_MONEY_JS = `${formatMinorUnits.toString()}
  function money(v, style) {
    return formatMinorUnits(Math.round(v * Math.pow(10, style.exponent)), style);
  }`;

export const DASHBOARD_JS = `(function () {
  'use strict';
  document.addEventListener('submit', function (e) {
    var form = e.target;
    if (!(form instanceof HTMLFormElement)) return;
    var message = form.getAttribute('data-confirm');
    if (message && !window.confirm(message)) { e.preventDefault(); return; }
    if (form.hasAttribute('data-busy')) {
      var button = form.querySelector('button[type=submit], button:not([type])');
      if (button) {
        if (form.getAttribute('data-submitted') === '1') { e.preventDefault(); return; }
        form.setAttribute('data-submitted', '1');
        button.setAttribute('disabled', 'disabled');
        var note = document.createElement('span');
        note.className = 'busy-note';
        note.setAttribute('role', 'status');
        note.textContent = form.getAttribute('data-busy') || 'Working…';
        button.insertAdjacentElement('afterend', note);
      }
    }
  });
  ${CHART_MONEY_JS}
  function draw() {
    if (typeof window.Chart !== 'function') return;
    var blocks = document.querySelectorAll('script[type="application/json"][data-chart]');
    for (var i = 0; i < blocks.length; i++) {
      var spec;
      try { spec = JSON.parse(blocks[i].textContent || '{}'); } catch (e) { continue; }
      var canvas = document.getElementById(blocks[i].getAttribute('data-chart'));
      if (!canvas) continue;
      var style = spec.money;
      var palette = ['#2952cc', '#1a7f37', '#c62828', '#9a6700', '#6f42c1'];
      new window.Chart(canvas, {
        type: spec.type || 'bar',
        data: {
          labels: spec.labels,
          datasets: spec.series.map(function (s, j) {
            return { label: s.label, data: s.data, backgroundColor: palette[j % palette.length], borderColor: palette[j % palette.length], tension: 0.2, fill: false };
          })
        },
        options: {
          responsive: true, maintainAspectRatio: false, animation: false,
          plugins: { legend: { display: spec.series.length > 1 }, tooltip: { callbacks: style ? { label: function (c) { return c.dataset.label + ': ' + money(c.parsed.y, style); } } : {} } },
          scales: {
            // Every label shown (never every other month); turned on a narrow screen when they do not fit.
            x: { ticks: { autoSkip: false, maxRotation: 90, minRotation: 0 } },
            y: { beginAtZero: true, suggestedMax: spec.suggestedMax, ticks: style ? { precision: 0, callback: function (v) { return money(v, style); } } : { precision: 0 } }
          }
        }
      });
    }
  }
  // A running accounting sync (and any other [data-poll] block): its numbers are fetched again every
  // few seconds while it runs, so the page shows the progress without a reload.
  function poll() {
    var blocks = document.querySelectorAll('[data-poll][data-running="1"]');
    Array.prototype.forEach.call(blocks, function (block) {
      var timer = window.setInterval(function () {
        fetch(block.getAttribute('data-poll'), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (data) {
            if (!data) return;
            var fields = block.querySelectorAll('[data-k]');
            for (var i = 0; i < fields.length; i++) {
              var k = fields[i].getAttribute('data-k');
              if (data[k] !== undefined) fields[i].textContent = String(data[k]);
            }
            var bar = block.querySelector('progress');
            if (bar && typeof data.pending === 'number') {
              bar.max = Math.max(1, data.pending + data.synced + data.failed);
              bar.value = data.synced + data.failed;
            }
            if (data.status !== 'active' || data.pending === 0) { block.setAttribute('data-running', '0'); window.clearInterval(timer); }
          })
          .catch(function () { window.clearInterval(timer); });
      }, 3000);
    });
  }
  // On a phone the navigation starts folded behind "Menu" (open without script, so never lost).
  function menu() {
    var m = document.querySelector('details.menu');
    if (m && window.matchMedia && window.matchMedia('(max-width: 800px)').matches) m.removeAttribute('open');
  }
  function ready() { menu(); draw(); poll(); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready); else ready();
})();
`;
