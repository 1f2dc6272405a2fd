// The portal's stylesheet, served at /portal/assets/portal.css (the CSP allows no inline style).
export const PORTAL_CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f7;color:#1d2330;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
a{color:#2450c5}
a:focus-visible,button:focus-visible,input:focus-visible,summary:focus-visible{outline:3px solid #8aa6ff;outline-offset:2px}
.portal{max-width:960px;margin:0 auto;padding:24px 16px 48px}
.top{display:flex;justify-content:space-between;align-items:flex-start;gap:16px;flex-wrap:wrap;margin-bottom:16px}
.top h1{margin:0;font-size:24px}
.merchant{margin:0;color:#5b6474;font-weight:600}
nav{display:flex;gap:12px;align-items:center;flex-wrap:wrap}
.panel{background:#fff;border:1px solid #e1e4ea;border-radius:10px;padding:18px 20px;margin-bottom:16px}
.panel h2{font-size:18px;margin:0 0 12px}
.panel h3{font-size:15px;margin:18px 0 8px}
.card{border:1px solid #e1e4ea;border-radius:8px;padding:14px 16px;margin-bottom:12px}
.card header{display:flex;justify-content:space-between;gap:12px;align-items:flex-start}
.items{margin:0;padding:0;list-style:none;font-weight:600}
.fact{margin:4px 0;color:#3b4352}
.next-invoice{margin:8px 0;font-size:16px}
.next-invoice .amount{font-size:18px}
.cancels{color:#a14b00}
.badge{display:inline-block;border-radius:999px;padding:2px 10px;font-size:12px;font-weight:600;background:#e9ecf2;color:#3b4352;white-space:nowrap}
.badge.test{background:#fff3cd;color:#7a5b00}
.status-active,.inv-paid{background:#dff5e5;color:#176130}
.status-trialing{background:#e3ecff;color:#2450c5}
.status-past_due,.status-unpaid,.inv-open{background:#fff0d9;color:#8a4b00}
.status-canceled,.inv-void,.inv-uncollectible{background:#eceef2;color:#5b6474}
.badge.default{background:#e3ecff;color:#2450c5}
table.list{width:100%;border-collapse:collapse}
table.list th{text-align:left;font-size:12px;color:#5b6474;border-bottom:1px solid #e1e4ea;padding:6px}
table.list td{padding:8px 6px;border-bottom:1px solid #f0f1f4;vertical-align:middle}
.num{text-align:right;white-space:nowrap}
table.list th.num{text-align:right}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.docs a{margin-right:8px}
.pms{list-style:none;margin:0;padding:0}
.pm{display:flex;flex-wrap:wrap;align-items:center;gap:8px;padding:10px 0;border-bottom:1px solid #f0f1f4}
.pm-label{font-weight:600;font-family:ui-monospace,monospace}
.pm-exp{color:#5b6474}
.row-actions{display:flex;gap:8px;margin-left:auto}
form.action{display:inline-block;margin:6px 0 0}
form.action.details{display:block}
.field{margin:10px 0}
.field label{display:block;font-size:13px;font-weight:600;margin-bottom:4px}
input{width:100%;max-width:420px;font:inherit;padding:9px 10px;border:1px solid #c3c8d2;border-radius:6px;background:#fff;color:inherit}
input[type=checkbox]{width:auto}
.row{display:flex;gap:12px;flex-wrap:wrap}.row .field{flex:1;min-width:140px}
.check{display:flex;gap:8px;align-items:center;margin:10px 0}
button{font:inherit;border-radius:6px;padding:8px 14px;border:1px solid transparent;cursor:pointer}
button.primary{background:#2450c5;color:#fff}
button.secondary{background:#fff;border-color:#c3c8d2;color:#1d2330}
button.danger{background:#fff;border-color:#e3a3a3;color:#a11d1d}
button.link{background:none;color:#2450c5;text-decoration:underline;padding:0}
button.small{padding:4px 10px;font-size:13px}
button[disabled]{opacity:.6;cursor:progress}
.add-card{margin-top:12px}.add-card summary{cursor:pointer;font-weight:600;color:#2450c5}
.field-error,.form-error{color:#a11d1d;font-size:13px;margin:4px 0 0}
.notice{background:#dff5e5;color:#176130;border-radius:8px;padding:10px 14px}
.empty,.hint{color:#5b6474}
footer{color:#5b6474;font-size:14px;margin-top:24px;display:flex;flex-direction:column;gap:6px}
.status{display:flex;justify-content:center;padding:64px 16px}
.notice-card{background:#fff;border:1px solid #e1e4ea;border-radius:10px;padding:28px 32px;max-width:520px}
.notice-card h1{font-size:22px;margin:0 0 8px}
a.button{display:inline-block;background:#2450c5;color:#fff;border-radius:6px;padding:6px 14px;text-decoration:none}
@media (max-width:640px){table.list thead{display:none}table.list td{display:block;border:0;padding:2px 0}table.list td[data-label]:not(:empty)::before{content:attr(data-label);display:inline-block;min-width:6.5em;color:#5b6474;font-size:12px}table.list tr{display:block;padding:8px 0;border-bottom:1px solid #e1e4ea}.num{text-align:left}.row-actions{margin-left:0}}
`;
