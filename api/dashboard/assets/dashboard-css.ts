// The dashboard's one stylesheet (served at /dashboard/assets/dashboard.css; the CSP allows no
// inline style). Laptop: a side navigation; phone (< 800 px): navigation on top, tables scroll.
export const DASHBOARD_CSS = `
:root { --bg:#f6f7f9; --panel:#fff; --ink:#1b1f24; --muted:#5b6570; --line:#dde1e6; --brand:#2952cc; --brand-ink:#fff;
  --ok:#1a7f37; --warn:#9a6700; --bad:#c62828; --test:#8a4500; --focus:#ffbf47; font-size:15px; }
* { box-sizing:border-box; }
html, body { margin:0; background:var(--bg); color:var(--ink); font:1rem/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; }
a { color:var(--brand); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline:3px solid var(--focus); outline-offset:2px; }
.skip { position:absolute; left:-9999px; } .skip:focus { left:1rem; top:1rem; background:#fff; padding:.5rem; z-index:10; }
.shell { display:grid; grid-template-columns:230px 1fr; min-height:100vh; }
.side { background:#111827; color:#e5e7eb; padding:1rem .75rem; }
.side .brand { font-weight:700; font-size:1.05rem; margin:0 .5rem 1rem; color:#fff; }
.side .merchant { margin:0 .5rem .75rem; color:#9ca3af; font-size:.85rem; word-break:break-word; }
.side nav ul { list-style:none; margin:0; padding:0; }
.side nav a { display:block; padding:.4rem .6rem; color:#e5e7eb; text-decoration:none; border-radius:6px; }
.side nav a:hover { background:#1f2937; } .side nav a[aria-current="page"] { background:var(--brand); color:#fff; }
.side nav .group { margin:.9rem .6rem .3rem; color:#9ca3af; font-size:.75rem; text-transform:uppercase; letter-spacing:.05em; }
.main { padding:1.25rem 1.75rem 3rem; min-width:0; }
.topbar { display:flex; flex-wrap:wrap; gap:.75rem; align-items:center; justify-content:space-between; margin-bottom:1rem; }
.topbar h1 { margin:0; font-size:1.4rem; min-width:0; overflow-wrap:anywhere; }
.topbar .who select { width:auto; }
td .mono { word-break:normal; white-space:nowrap; }
.topbar .who { display:flex; flex-wrap:wrap; gap:.5rem; align-items:center; color:var(--muted); font-size:.9rem; }
.mode-test-banner { background:#fff4e5; border:1px solid #f5c07a; color:#7a3e00; padding:.4rem .75rem; border-radius:6px; margin-bottom:1rem; }
.panel { background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:1rem 1.1rem; margin-bottom:1rem; }
.panel h2 { margin:0 0 .75rem; font-size:1.1rem; }
.grid { display:grid; gap:1rem; grid-template-columns:repeat(auto-fit, minmax(280px, 1fr)); }
.kpis { display:grid; gap:.75rem; grid-template-columns:repeat(auto-fit, minmax(160px, 1fr)); margin-bottom:1rem; }
.kpi { background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:.75rem 1rem; }
.kpi .label { color:var(--muted); font-size:.85rem; } .kpi .value { font-size:1.35rem; font-weight:650; }
.table-wrap { overflow-x:auto; }
table { width:100%; border-collapse:collapse; font-size:.93rem; }
th, td { text-align:left; padding:.5rem .6rem; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:.82rem; text-transform:uppercase; letter-spacing:.03em; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
th, td:first-child a, td .badge, td .doc-links a, td button, td.nowrap { white-space:nowrap; }
td .detail { display:block; white-space:normal; word-break:break-word; min-width:14rem; max-width:26rem; }
.mono { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:.88em; word-break:break-all; }
.muted { color:var(--muted); }
.badge { display:inline-block; padding:.05rem .5rem; border-radius:999px; font-size:.8rem; font-weight:600; background:#eef1f4; color:#374151; white-space:nowrap; }
.badge.ok { background:#dafbe1; color:var(--ok); } .badge.warn { background:#fff8c5; color:var(--warn); } .badge.bad { background:#ffebe9; color:var(--bad); }
.badge.test { background:#fff4e5; color:var(--test); } .badge.live { background:#dafbe1; color:var(--ok); }
form.inline { display:inline; }
form.inline-row { display:inline-flex; flex-wrap:nowrap; gap:.4rem; align-items:center; } form.inline-row select { width:auto; }
.stack > * + * { margin-top:.75rem; }
.field { display:flex; flex-direction:column; gap:.25rem; margin-bottom:.8rem; max-width:34rem; }
.field label { font-weight:600; font-size:.9rem; }
.field .hint { color:var(--muted); font-size:.82rem; }
input[type=text], input[type=email], input[type=password], input[type=number], input[type=url], input[type=search], input[type=date], select, textarea {
  font:inherit; padding:.45rem .6rem; border:1px solid #b8c0c9; border-radius:6px; background:#fff; color:inherit; width:100%; }
textarea { min-height:5.5rem; }
input[aria-invalid=true], select[aria-invalid=true], textarea[aria-invalid=true] { border-color:var(--bad); }
.field-error { color:var(--bad); font-size:.87rem; margin:0; font-weight:600; }
.form-error, .notice { border-radius:6px; padding:.6rem .8rem; margin-bottom:1rem; }
.form-error { background:#ffebe9; border:1px solid #ffc1bc; color:#82071e; }
.notice { background:#dafbe1; border:1px solid #aceebb; color:#0a3d1a; }
.secret-once { background:#fffbe6; border:1px solid #e9c46a; border-radius:8px; padding:.8rem 1rem; margin-bottom:1rem; }
.secret-once code { display:block; font-size:1rem; padding:.5rem; background:#fff; border:1px dashed #c9a227; margin:.4rem 0; word-break:break-all; user-select:all; }
button, .button { font:inherit; font-weight:600; padding:.45rem .9rem; border-radius:6px; border:1px solid var(--brand); background:var(--brand); color:var(--brand-ink); cursor:pointer; text-decoration:none; display:inline-block; }
button.secondary, .button.secondary { background:#fff; color:var(--brand); }
button.danger { background:var(--bad); border-color:var(--bad); }
button.link { background:none; border:none; color:inherit; padding:0; text-decoration:underline; font-weight:400; }
button[disabled] { opacity:.6; cursor:progress; }
.actions { display:flex; flex-wrap:wrap; gap:.5rem; align-items:center; }
.table-wrap + .actions, .sync-progress + .actions { margin-top:.75rem; }
.filters { display:flex; flex-wrap:wrap; gap:.5rem; align-items:flex-end; margin-bottom:.75rem; }
.filters .field { margin:0; min-width:12rem; }
/* A long id in a table may break anywhere (it is still copied whole), so the id column stays on a laptop. */
.table-wrap td .id-text { white-space:normal; overflow-wrap:anywhere; }
/* A search box is wide enough for its placeholder ("number, name, e-mail, kennitala"). */
.filters .field.search { flex:1 1 20rem; max-width:30rem; }
.pager { display:flex; gap:1rem; margin-top:.75rem; }
dl.props { display:grid; grid-template-columns:max-content 1fr; gap:.35rem 1rem; margin:0; }
dl.props dt { color:var(--muted); } dl.props dd { margin:0; word-break:break-word; }
.chart { margin:0; } .chart-box { position:relative; height:240px; }
.attention li { margin-bottom:.35rem; }
.attention .person { display:inline; } .attention .person .sub { display:none; }
.person { display:flex; flex-direction:column; } .person .sub { font-size:.82rem; }
.id-text { color:var(--muted); font-size:.8rem; user-select:all; }
details.menu > summary { display:none; }
.export-list { margin:0; padding-left:1.1rem; } .export-list li { margin-bottom:.5rem; }
.auth-page { max-width:26rem; margin:8vh auto; padding:0 1rem; }
.auth-page h1 { font-size:1.4rem; }
.busy-note { color:var(--muted); font-size:.9rem; margin-left:.4rem; }
.toc { display:flex; flex-wrap:wrap; gap:.35rem .9rem; margin-bottom:1rem; font-size:.92rem; }
.field.check { display:grid; grid-template-columns:auto 1fr; align-items:start; column-gap:.55rem; margin-bottom:.45rem; }
.field.check input { margin:.2rem 0 0; width:1.05rem; height:1.05rem; }
.field.check label { font-weight:400; }
.field.check .hint, .field.check .field-error { grid-column:2; }
fieldset { border:1px solid var(--line); border-radius:6px; margin:0 0 .8rem; padding:.5rem .8rem .2rem; max-width:34rem; }
legend { font-weight:600; font-size:.9rem; padding:0 .3rem; }
.grid-form { display:grid; grid-template-columns:repeat(auto-fill, minmax(16rem, 1fr)); column-gap:1rem; max-width:52rem; }
.grid-form > .form-error, .grid-form > button { grid-column:1 / -1; justify-self:start; }
.connect-forms { display:grid; gap:1rem; grid-template-columns:repeat(auto-fit, minmax(16rem, 1fr)); margin-top:1rem; }
.connect-form { border:1px solid var(--line); border-radius:6px; padding:.75rem .9rem; }
.connect-form p { margin-top:0; }
.sync-progress { margin:1rem 0; max-width:40rem; }
.sync-progress label { font-weight:600; font-size:.9rem; display:block; margin-bottom:.3rem; }
.sync-progress progress { width:100%; height:.9rem; }
.sync-progress p { margin:.4rem 0 0; }
.doc-links { display:flex; flex-wrap:wrap; gap:.5rem; }
@media (max-width: 800px) {
  /* The navigation bar keeps its own height on a short page (the main area takes the rest). */
  .shell { grid-template-columns:1fr; grid-template-rows:auto 1fr; }
  .side { padding:.6rem .5rem; }
  .side .brand, .side .merchant { margin:.2rem .4rem; display:inline-block; }
  .side nav ul { display:flex; flex-wrap:wrap; gap:.2rem; }
  .side nav .group { display:none; }
  .side nav a { padding:.3rem .5rem; font-size:.9rem; }
  .main { padding:1rem .8rem 2rem; }
  dl.props { grid-template-columns:1fr; } dl.props dt { margin-top:.4rem; }
  /* The navigation collapses behind "Menu"; the account bar and test banner stay short. */
  details.menu > summary { display:inline-block; cursor:pointer; padding:.3rem .6rem; border:1px solid #4b5563; border-radius:6px; color:#fff; font-weight:600; float:right; }
  details.menu[open] > nav { clear:both; padding-top:.5rem; }
  /* Filters stack, each the width of the screen: no placeholder is cut. */
  .filters .field, .filters .field.search { flex:1 1 100%; min-width:0; max-width:none; }
  .topbar { margin-bottom:.5rem; } .topbar .who { font-size:.8rem; gap:.35rem; } .topbar .who #user-email { display:none; }
  .mode-test-banner { padding:.25rem .5rem; font-size:.85rem; margin-bottom:.6rem; }
  /* Tables become cards: the row's title, status and amount first, every other cell labelled. */
  .table-wrap { overflow-x:visible; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display:block; width:100%; }
  table.cards thead { position:absolute; left:-9999px; }
  table.cards tr { display:flex; flex-wrap:wrap; align-items:baseline; gap:.15rem .6rem; border:1px solid var(--line); border-radius:8px; padding:.55rem .7rem; margin-bottom:.6rem; background:#fff; }
  table.cards td { border:0; padding:.1rem 0; text-align:left; white-space:normal; width:auto; flex:1 1 100%; }
  table.cards td.cell-title { order:-3; flex:1 1 auto; font-weight:600; }
  table.cards td.cell-status { order:-2; flex:0 0 auto; }
  table.cards td.cell-amount { order:-1; flex:1 1 100%; font-size:1.05rem; font-weight:650; }
  table.cards td:not(.cell-title):not(.cell-status):not(.cell-amount)::before { content:attr(data-label); color:var(--muted); font-size:.78rem; margin-right:.4rem; }
  table.cards td[data-label=""]::before { content:none; }
  table.cards td .detail { min-width:0; }
}
`;
