// Static assets of the dashboard: its stylesheet and script, and Chart.js read once from
// node_modules (served by this service: no CDN, nothing downloaded at run time).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../../context';
import type { DashboardRouter } from '../router-types';
import { DASHBOARD_CSS } from '../assets/dashboard-css';
import { DASHBOARD_JS } from '../assets/dashboard-js';

let chartJs: string | undefined;
function chartSource(): string {
  // chart.js exports only its module entry points; the UMD build sits beside the CommonJS one.
  chartJs ??= readFileSync(path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
  return chartJs;
}

export function assetRoutes(router: DashboardRouter, _deps: AppDeps): void {
  const asset = (path: string, type: string, body: () => string) =>
    router.get(path, async (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = type;
      ctx.body = body();
    });
  asset('/assets/dashboard.css', 'text/css; charset=utf-8', () => DASHBOARD_CSS);
  asset('/assets/dashboard.js', 'text/javascript; charset=utf-8', () => DASHBOARD_JS);
  asset('/assets/chart.umd.js', 'text/javascript; charset=utf-8', chartSource);
}
