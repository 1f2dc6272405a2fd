// Pure rules of the dashboard: password hashing, roles, MRR month scaling, safe redirects.
import assert from 'node:assert/strict';
import { checkNewPassword, hashPassword, verifyPassword } from '../../../src/domain/dashboard-users/passwords';
import { roleAllows, DASHBOARD_ROLES, type Permission } from '../../../src/domain/dashboard-users/roles';
import { lastMonths, monthlyFactor } from '../../../src/domain/dashboard-metrics/billing-overview';
import { safeNext } from '../../../api/dashboard/http';

describe('dashboard rules', () => {
  it('hashes passwords with scrypt and a fresh salt; verifies only the right one', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    assert.notEqual(a, b, 'salted');
    assert.match(a, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.equal(await verifyPassword('correct horse battery', a), true);
    assert.equal(await verifyPassword('correct horse batterY', a), false);
    assert.equal(await verifyPassword('x', 'sha256$abc'), false);
    assert.equal(await verifyPassword('x', 'scrypt$99999999$8$1$aa$bb'), false, 'absurd cost refused');
  });

  it('password rule: 10 to 200 characters', () => {
    assert.throws(() => checkNewPassword('123456789'), /at least 10/);
    assert.throws(() => checkNewPassword('x'.repeat(201)), /at most 200/);
    assert.throws(() => checkNewPassword(12345678901), /must be a string/);
    assert.equal(checkNewPassword('ten chars!'), 'ten chars!');
  });

  it('roles: owner everything, developer keys/webhooks, finance billing/accounting/exports, read-only looks', () => {
    const table: Record<string, Permission[]> = {
      owner: ['view', 'manage_developers', 'manage_billing', 'manage_accounting', 'manage_business', 'manage_team', 'export_books'],
      developer: ['view', 'manage_developers'],
      finance: ['view', 'manage_billing', 'manage_accounting', 'export_books'],
      read_only: ['view'],
    };
    const all: Permission[] = ['view', 'manage_developers', 'manage_billing', 'manage_accounting', 'manage_business', 'manage_team', 'export_books'];
    for (const role of DASHBOARD_ROLES) for (const p of all) assert.equal(roleAllows(role, p), table[role]!.includes(p), `${role} ${p}`);
  });

  it('MRR scales every interval to a month', () => {
    const perMonth = (interval: string, count: number, amount: number) => {
      const [n, d] = monthlyFactor(interval, count);
      return (amount * n) / d;
    };
    assert.equal(perMonth('month', 1, 1200), 1200);
    assert.equal(perMonth('month', 3, 1200), 400);
    assert.equal(perMonth('year', 1, 12000), 1000);
    assert.equal(perMonth('week', 1, 1200), 5200);
    assert.equal(perMonth('day', 1, 100), 3000);
    assert.deepEqual(lastMonths(new Date('2026-02-15T00:00:00Z'), 3), ['2025-12', '2026-01', '2026-02']);
  });

  it('after sign-in, goes back only to a dashboard path', () => {
    assert.equal(safeNext('/dashboard/invoices?status=open'), '/dashboard/invoices?status=open');
    for (const bad of ['https://evil.example/', '//evil.example', '/v1/customers', '/dashboard\\@evil', undefined, 42]) assert.equal(safeNext(bad), '/dashboard');
  });
});
