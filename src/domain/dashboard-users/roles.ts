// Dashboard roles and what each may do. The server checks these on every action (api/dashboard
// calls requirePermission before any domain function); the pages only hide what a role cannot do.
import type { DashboardRole } from '../../generated/prisma/client';

export const DASHBOARD_ROLES = ['owner', 'developer', 'finance', 'read_only'] as const satisfies readonly DashboardRole[];

export type Permission =
  /** See every page of the merchant's data (every role). */
  | 'view'
  /** API keys, webhook endpoints and deliveries, embedded-checkout origins, redirect domains. */
  | 'manage_developers'
  /** Invoices (retry, void), payments and refunds, customers, subscriptions. */
  | 'manage_billing'
  /** The accounting connection and bank-invoice settings. */
  | 'manage_accounting'
  /** Business details, portal settings, going live. */
  | 'manage_business'
  /** Users, invitations and the audit log. */
  | 'manage_team'
  /** Download a period's books: the CSV exports and the invoice PDFs (docs/exports.md). */
  | 'export_books';

const GRANTS: Record<DashboardRole, readonly Permission[]> = {
  owner: ['view', 'manage_developers', 'manage_billing', 'manage_accounting', 'manage_business', 'manage_team', 'export_books'],
  developer: ['view', 'manage_developers'],
  finance: ['view', 'manage_billing', 'manage_accounting', 'export_books'],
  read_only: ['view'],
};

export const ROLE_LABELS: Record<DashboardRole, string> = {
  owner: 'Owner',
  developer: 'Developer',
  finance: 'Finance',
  read_only: 'Read-only',
};

export function roleAllows(role: DashboardRole, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function isDashboardRole(value: unknown): value is DashboardRole {
  return typeof value === 'string' && (DASHBOARD_ROLES as readonly string[]).includes(value);
}
