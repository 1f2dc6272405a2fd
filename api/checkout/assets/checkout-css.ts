// The checkout stylesheet, served at /checkout/assets/checkout.css (same origin: the CSP allows
// no other). System fonts only: no web fonts, no third-party assets.
export const CHECKOUT_CSS = `
:root {
  --bg: #f4f5f7;
  --panel: #ffffff;
  --text: #1a1f36;
  --muted: #5e6478;
  --line: #dfe3ea;
  --accent: #2457d6;
  --accent-dark: #1b45ad;
  --danger: #c0262d;
  --ok: #17804a;
  --radius: 10px;
  color-scheme: light;
}
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body {
  background: var(--bg);
  color: var(--text);
  font: 15px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  -webkit-font-smoothing: antialiased;
}
[hidden] { display: none !important; }
.checkout {
  max-width: 960px;
  margin: 0 auto;
  min-height: 100vh;
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 0;
}
.checkout.embedded, .checkout.status { display: block; min-height: 0; max-width: 520px; padding: 16px; }
.checkout.status { padding-top: 12vh; }
.summary {
  padding: 64px 48px;
  background: var(--bg);
}
.embedded .summary { padding: 0 0 16px; }
.merchant { display: flex; align-items: center; gap: 12px; margin-bottom: 28px; }
.merchant-mark {
  width: 36px; height: 36px; border-radius: 50%;
  background: var(--accent); color: #fff; font-weight: 600;
  display: inline-flex; align-items: center; justify-content: center;
}
.merchant h1 { font-size: 17px; font-weight: 600; margin: 0; }
.badge {
  display: inline-block; margin-bottom: 12px; padding: 2px 8px; border-radius: 4px;
  background: #fff1d6; color: #8a5200; font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .04em;
}
.description { color: var(--muted); margin: 0 0 8px; white-space: pre-line; overflow-wrap: anywhere; }
.total { display: flex; flex-direction: column; gap: 4px; }
.total span { color: var(--muted); font-size: 14px; }
.total strong { font-size: 34px; font-weight: 650; letter-spacing: -.01em; }
.embedded .total strong { font-size: 26px; }
.pay-panel, .done {
  background: var(--panel);
  padding: 64px 48px;
  box-shadow: -1px 0 0 var(--line);
}
.embedded .pay-panel, .embedded .done { padding: 20px; border: 1px solid var(--line); border-radius: var(--radius); box-shadow: none; }
.field { margin-bottom: 14px; }
.field label, .wallet-sheet label { display: block; font-size: 13px; font-weight: 500; color: var(--muted); margin-bottom: 6px; }
input, select {
  width: 100%; padding: 10px 12px; font: inherit; color: var(--text);
  border: 1px solid var(--line); border-radius: 8px; background: #fff;
  transition: border-color .15s, box-shadow .15s;
}
input:focus, select:focus { outline: none; border-color: var(--accent); box-shadow: 0 0 0 3px rgba(36, 87, 214, .18); }
input[aria-invalid="true"] { border-color: var(--danger); }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.field-error { color: var(--danger); font-size: 13px; margin: 6px 0 0; }
.form-error {
  color: var(--danger); background: #fdecec; border: 1px solid #f5c2c4; border-radius: 8px;
  padding: 10px 12px; margin: 14px 0 0; font-size: 14px;
}
.save { display: flex; align-items: center; gap: 8px; margin: 4px 0 16px; font-size: 14px; color: var(--text); cursor: pointer; }
.save input { width: 16px; height: 16px; margin: 0; accent-color: var(--accent); }
button, .button {
  font: inherit; cursor: pointer; border-radius: 8px; border: 0; padding: 12px 16px; width: 100%;
  display: inline-block; text-align: center; text-decoration: none;
}
.primary { background: var(--accent); color: #fff; font-weight: 600; }
.primary:hover { background: var(--accent-dark); }
.primary:disabled { opacity: .65; cursor: progress; }
.secondary { background: #eef0f4; color: var(--text); }
.pay { margin-top: 4px; font-size: 16px; }
.wallets { display: grid; gap: 10px; margin-bottom: 6px; }
.wallet { font-weight: 600; font-size: 16px; }
.wallet-apple_pay { background: #000; color: #fff; }
.wallet-google_pay { background: #fff; color: #3c4043; border: 1px solid #c8ccd3; }
.wallet:disabled { opacity: .6; }
.divider { display: flex; align-items: center; gap: 10px; color: var(--muted); font-size: 13px; margin: 12px 0; }
.divider::before, .divider::after { content: ""; flex: 1; height: 1px; background: var(--line); }
.wallet-sheet { border: 1px solid var(--line); border-radius: var(--radius); padding: 16px; margin: 8px 0 16px; background: #fafbfc; }
.wallet-sheet h2 { font-size: 15px; margin: 0 0 4px; }
.wallet-name { margin: 0 0 12px; font-weight: 600; }
.sheet-actions { display: grid; grid-template-columns: 1fr 2fr; gap: 10px; margin-top: 12px; }
.secure { color: var(--muted); font-size: 12px; margin: 18px 0 0; }
.cancel { display: inline-block; margin-top: 14px; color: var(--muted); font-size: 14px; }
.cancel:hover { color: var(--text); }
.done, .notice { text-align: center; }
.notice { background: var(--panel); padding: 40px 32px; border-radius: var(--radius); border: 1px solid var(--line); }
.notice h1, .notice h2, .done h2 { font-size: 21px; margin: 8px 0; }
.notice p { color: var(--muted); }
.notice .button { margin-top: 16px; width: auto; }
.merchant-line { font-weight: 600; color: var(--text) !important; }
.done-mark {
  width: 52px; height: 52px; margin: 0 auto 8px; border-radius: 50%;
  background: #e3f5ea; color: var(--ok); font-size: 28px; line-height: 52px;
}
.loading { color: var(--muted); text-align: center; padding: 40px 0; }
@media (min-width: 761px) {
  /* Summary on grey, payment on white, each colour running to its edge of the window. */
  body:has(.checkout:not(.embedded):not(.status)) { background: linear-gradient(90deg, var(--bg) 50%, var(--panel) 50%); }
}
@media (max-width: 760px) {
  .checkout { grid-template-columns: 1fr; }
  .summary { padding: 28px 20px 20px; }
  .pay-panel, .done { padding: 24px 20px 40px; box-shadow: 0 -1px 0 var(--line); }
}
`;
