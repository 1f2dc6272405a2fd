import { yup } from '../../validate';
import { idField, text } from '../../fields';
import { AGGREGATE_TYPES } from '../../../src/metering';
import { METER_LIMITS } from '../../../src/domain/meters/manage-meters';

export const createMeterSchema = yup.object({
  name: text(METER_LIMITS.nameLength).required(),
  event_name: text(METER_LIMITS.eventNameLength).required(),
  aggregate_type: yup.string().oneOf(AGGREGATE_TYPES).required(),
  aggregate_property: text(METER_LIMITS.propertyLength).nullable(),
  // Checked by the domain (checkFilter); its JSON Schema for the OpenAPI document.
  filter: yup
    .mixed<Record<string, unknown>>()
    .nullable()
    .meta({
      jsonSchema: {
        type: ['object', 'null'],
        propertyNames: { minLength: 1, maxLength: METER_LIMITS.filterKeyLength },
        additionalProperties: { type: 'string', maxLength: METER_LIMITS.filterValueLength },
        maxProperties: METER_LIMITS.filterPairs,
        description: 'Only events whose `metadata` has every one of these key–value pairs are aggregated (string values); null or `{}` for every event.',
      },
    }),
  unit_label: text(METER_LIMITS.unitLabelLength).nullable(),
  unit_multiplier: yup
    .number()
    .integer('${path} must be an integer')
    .min(1, '${path} must be at least 1')
    .max(METER_LIMITS.maxUnitMultiplier, `\${path} must be at most ${METER_LIMITS.maxUnitMultiplier}`),
});
export type CreateMeterBody = yup.InferType<typeof createMeterSchema>;

export const listMetersQuery = yup.object({
  archived: yup.boolean().typeError('archived must be true or false'),
});

export const quantitiesQuery = yup.object({
  customer: idField().required(),
  period_start: yup.string().required(),
  period_end: yup.string().required(),
});
