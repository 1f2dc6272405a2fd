// Creates a dashboard user of a merchant (the operator CLI, and an accepted invitation).
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import type { DashboardRole, DashboardUser } from '../../generated/prisma/client';
import { isUniqueViolation } from '../customers/unique-violation';
import { checkNewPassword, hashPassword } from './passwords';
import { isDashboardRole } from './roles';
import { normaliseUserEmail } from './user-email';

export interface CreateDashboardUserInput {
  merchantId: string;
  email: unknown;
  password: unknown;
  role: unknown;
  name?: string | null;
}

type UserDb = Pick<Db, 'merchant' | 'dashboardUser'>;

export async function createDashboardUser(db: UserDb, input: CreateDashboardUserInput): Promise<DashboardUser> {
  const merchant = await db.merchant.findUnique({ where: { id: input.merchantId } });
  if (!merchant) throw errors.resourceNotFound(`No such merchant: '${input.merchantId}'`, 'merchant');
  const email = normaliseUserEmail(input.email);
  if (!isDashboardRole(input.role)) throw errors.validationFailed('role must be one of owner, developer, finance, read_only', 'role');
  const role: DashboardRole = input.role;
  const password = checkNewPassword(input.password);
  const name = input.name?.trim() || null;
  if (name !== null && name.length > 200) throw errors.validationFailed('name must be at most 200 characters', 'name');
  const passwordHash = await hashPassword(password);
  try {
    return await db.dashboardUser.create({ data: { id: newId('dashboardUser'), merchantId: merchant.id, email, role, name, passwordHash } });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.resourceConflict(`A dashboard user with the e-mail ${email} already exists`, 'email');
    throw err;
  }
}
