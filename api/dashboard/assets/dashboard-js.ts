// The dashboard's one script (served at /dashboard/assets/dashboard.js; no inline script). Every
// page works without it; it adds: a confirmation before destructive actions, a "working…" state
// on forms that take a while (payments, retries), and the charts (Chart.js, served by this
// service from node_modules, reading each chart's data from a JSON <script> block).
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
  function money(v, currency) {
    try { return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency, maximumFractionDigits: 2 }).format(v); }
    catch (e) { return String(v) + ' ' + currency; }
  }
  function draw() {
    if (typeof window.Chart !== 'function') return;
    var blocks = document.querySelectorAll('script[type="application/json"][data-chart]');
    for (var i = 0; i < blocks.length; i++) {
      var spec;
      try { spec = JSON.parse(blocks[i].textContent || '{}'); } catch (e) { continue; }
      var canvas = document.getElementById(blocks[i].getAttribute('data-chart'));
      if (!canvas) continue;
      var currency = spec.currency;
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
          plugins: { legend: { display: spec.series.length > 1 }, tooltip: { callbacks: currency ? { label: function (c) { return c.dataset.label + ': ' + money(c.parsed.y, currency); } } : {} } },
          scales: { y: { beginAtZero: true, ticks: currency ? { callback: function (v) { return money(v, currency); } } : { precision: 0 } } }
        }
      });
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', draw); else draw();
})();
`;
