import type { AppDeps } from '../../context';
import type { DashboardRouter } from '../index';
export function customerPages(_router: DashboardRouter, _deps: AppDeps): void {}
