import { yup } from '../../validate';
import { idField, text } from '../../fields';

export const createTestClockSchema = yup.object({
  frozen_time: yup.string().required(),
  name: text(300).nullable(),
});
export type CreateTestClockBody = yup.InferType<typeof createTestClockSchema>;

export const advanceTestClockSchema = yup.object({
  frozen_time: yup.string().required(),
});
export type AdvanceTestClockBody = yup.InferType<typeof advanceTestClockSchema>;

export const attachCustomerSchema = yup.object({
  customer: idField().required(),
});
export type AttachCustomerBody = yup.InferType<typeof attachCustomerSchema>;
