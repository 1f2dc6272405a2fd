// Bank-invoice (krafa) settings as they are in force. In this version they are service-wide
// rules of the dunning schedule (src/domain/subscriptions/dunning.ts), not per merchant: this
// reads them for the dashboard and GET /v1/bank_invoice_settings; changing them is refused with a
// clear message rather than pretending to store something nothing would use.
import { errors } from '../../errors';
import { CLAIM_EXPIRY_DAYS, CLAIM_RECHECK_DAYS, DEFAULT_DAYS_UNTIL_DUE } from '../subscriptions/dunning';

export interface BankInvoiceSettings {
  defaultDaysUntilDue: number;
  claimExpiryDays: number;
  claimRecheckDays: number;
  editable: false;
}

export function bankInvoiceSettings(): BankInvoiceSettings {
  return { defaultDaysUntilDue: DEFAULT_DAYS_UNTIL_DUE, claimExpiryDays: CLAIM_EXPIRY_DAYS, claimRecheckDays: CLAIM_RECHECK_DAYS, editable: false };
}

export function refuseBankInvoiceSettingsChange(): never {
  throw errors.invalidState(
    'Bank-invoice settings are service-wide in this version (due date, claim expiry and re-check schedule in docs/subscriptions.md); they cannot be changed per merchant yet.',
  );
}
