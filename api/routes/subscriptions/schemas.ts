import { yup } from '../../validate';
import { idField, metadataField } from '../../fields';
import { MAX_DAYS_UNTIL_DUE, MAX_ITEMS, MAX_QUANTITY, MAX_TRIAL_DAYS } from '../../../src/domain/subscriptions/subscription-rules';

const int = () => yup.number().integer('${path} must be an integer');

export const quantityField = () => int().min(0, '${path} must be at least 0').max(MAX_QUANTITY, `\${path} must be at most ${MAX_QUANTITY}`);
export const includedUnitsField = () => int().min(0, '${path} must be at least 0').max(Number.MAX_SAFE_INTEGER, '${path} is too large').nullable();
export const collectionMethodField = () => yup.string().oneOf(['charge_automatically', 'send_invoice'] as const, '${path} must be charge_automatically or send_invoice');
export const prorationBehaviorField = () =>
  yup.string().oneOf(['create_prorations', 'always_invoice', 'none'] as const, '${path} must be create_prorations, always_invoice or none');

const discountField = () =>
  yup
    .object({
      amount_off: int().min(1, '${path} must be at least 1').max(Number.MAX_SAFE_INTEGER, '${path} is too large').nullable(),
      percent_off: yup.number().min(0.01, '${path} must be at least 0.01').max(100, '${path} must be at most 100').nullable(),
      duration: yup
        .string()
        .oneOf(['once', 'repeating', 'forever'] as const, '${path} must be once, repeating or forever')
        .required(),
      duration_in_months: int().min(1, '${path} must be at least 1').max(1200, '${path} is too large').nullable(),
    })
    .default(undefined)
    .nullable();

const itemSchema = yup.object({
  price: idField().required(),
  quantity: quantityField(),
  credit_rollover: yup.boolean(),
  included_units: includedUnitsField(),
  metadata: metadataField(),
});

export const createSubscriptionSchema = yup.object({
  customer: idField().required(),
  items: yup.array().of(itemSchema).min(1, '${path} needs at least one item').max(MAX_ITEMS, `\${path} can have at most ${MAX_ITEMS} items`).required(),
  collection_method: collectionMethodField(),
  trial_period_days: int().min(0, '${path} must be at least 0').max(MAX_TRIAL_DAYS, `\${path} must be at most ${MAX_TRIAL_DAYS}`).nullable(),
  days_until_due: int().min(0, '${path} must be at least 0').max(MAX_DAYS_UNTIL_DUE, `\${path} must be at most ${MAX_DAYS_UNTIL_DUE}`).nullable(),
  discount: discountField(),
  metadata: metadataField(),
});
export type CreateSubscriptionBody = yup.InferType<typeof createSubscriptionSchema>;

export const updateSubscriptionSchema = yup.object({
  cancel_at_period_end: yup.boolean(),
  discount: discountField(),
  collection_method: collectionMethodField(),
  days_until_due: int().min(0, '${path} must be at least 0').max(MAX_DAYS_UNTIL_DUE, `\${path} must be at most ${MAX_DAYS_UNTIL_DUE}`).nullable(),
  metadata: metadataField(),
});
export type UpdateSubscriptionBody = yup.InferType<typeof updateSubscriptionSchema>;

export const cancelSubscriptionSchema = yup.object({
  at_period_end: yup.boolean(),
});

export const listSubscriptionsQuery = yup.object({
  customer: idField(),
  status: yup
    .string()
    .oneOf(['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused'] as const, 'status must be one of trialing, active, past_due, unpaid, canceled, paused'),
});
