import { yup } from '../../validate';
import { idField, metadataField } from '../../fields';
import { includedUnitsField, prorationBehaviorField, quantityField } from '../subscriptions/schemas';

export const createSubscriptionItemSchema = yup.object({
  subscription: idField().required(),
  price: idField().required(),
  quantity: quantityField(),
  proration_behavior: prorationBehaviorField(),
  credit_rollover: yup.boolean(),
  included_units: includedUnitsField(),
  metadata: metadataField(),
});
export type CreateSubscriptionItemBody = yup.InferType<typeof createSubscriptionItemSchema>;

export const updateSubscriptionItemSchema = yup.object({
  quantity: quantityField(),
  proration_behavior: prorationBehaviorField(),
  credit_rollover: yup.boolean(),
  included_units: includedUnitsField(),
  metadata: metadataField(),
});
export type UpdateSubscriptionItemBody = yup.InferType<typeof updateSubscriptionItemSchema>;

export const deleteSubscriptionItemQuery = yup.object({
  proration_behavior: prorationBehaviorField(),
});
