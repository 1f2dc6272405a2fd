import { yup } from '../../validate';
import { text } from '../../fields';

export const attachTestCardSchema = yup.object({
  card_number: text(30).required(),
  exp_month: yup.number().integer('${path} must be an integer').min(1, '${path} must be 1 to 12').max(12, '${path} must be 1 to 12').required(),
  exp_year: yup.number().integer('${path} must be an integer').min(0, '${path} must be a year').max(9999, '${path} must be a year').required(),
  cvc: text(4).nullable(),
  cardholder_name: text(200).nullable(),
  wallet: yup
    .string()
    .oneOf(['apple_pay', 'google_pay'] as const, 'wallet must be apple_pay or google_pay')
    .nullable(),
});
export type AttachTestCardBody = yup.InferType<typeof attachTestCardSchema>;

export const payBankClaimSchema = yup.object({
  amount: yup.number().integer('${path} must be an integer').min(1, '${path} must be at least 1').max(Number.MAX_SAFE_INTEGER, '${path} is too large'),
});

export const eventFeedQuery = yup.object({
  /** From a previous answer; without it the feed starts now. */
  cursor: yup.string().max(500),
  /** Comma-separated event types (docs/events.md); every type when absent. */
  types: yup.string().max(4000),
  /** Seconds to wait for an event when none is there yet (long poll), 0–30, default 25. */
  wait: yup.number().integer().min(0).max(30),
});
