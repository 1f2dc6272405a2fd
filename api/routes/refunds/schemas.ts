import { yup } from '../../validate';
import { idField, metadataField, positiveAmount, text } from '../../fields';

export const createRefundSchema = yup.object({
  payment: idField().required(),
  amount: positiveAmount().nullable(),
  reason: text(200).nullable(),
  metadata: metadataField(),
});
export type CreateRefundBody = yup.InferType<typeof createRefundSchema>;

export const listRefundsQuery = yup.object({
  payment: idField(),
});
