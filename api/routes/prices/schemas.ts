import { yup } from '../../validate';
import { idField, metadataField, text, vatRateField, wholeNumber } from '../../fields';
import { AGGREGATE_USAGES, PRICE_INTERVALS, PRICE_TYPES, TIERS_MODES, USAGE_TYPES } from '../../../src/domain/prices/create-price';

const tier = yup.object({
  up_to: wholeNumber().nullable(),
  unit_amount: wholeNumber().nullable(),
  flat_amount: wholeNumber().nullable(),
});

export const createPriceSchema = yup.object({
  product: idField().required(),
  type: yup.string().oneOf(PRICE_TYPES).required(),
  currency: text(3).nullable(),
  unit_amount: wholeNumber().nullable(),
  recurring: yup
    .object({
      interval: yup.string().oneOf(PRICE_INTERVALS).required(),
      interval_count: yup.number().integer('${path} must be an integer').min(1, '${path} must be at least 1'),
      usage_type: yup.string().oneOf(USAGE_TYPES),
      aggregate_usage: yup.string().oneOf(AGGREGATE_USAGES).nullable(),
    })
    .nullable()
    .default(undefined),
  tiers_mode: yup.string().oneOf(TIERS_MODES).nullable(),
  tiers: yup.array().of(tier.required()).nullable(),
  meter: idField().nullable(),
  included_units: wholeNumber().nullable(),
  accounting_code: text(100).nullable(),
  vat_rate: vatRateField(),
  active: yup.boolean(),
  metadata: metadataField(),
});
export type CreatePriceBody = yup.InferType<typeof createPriceSchema>;

export const updatePriceSchema = yup.object({
  active: yup.boolean(),
  accounting_code: text(100).nullable(),
  vat_rate: vatRateField(),
  metadata: metadataField(),
});

export const listPricesQuery = yup.object({
  product: idField(),
  active: yup.boolean(),
});
