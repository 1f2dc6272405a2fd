import { yup } from '../../validate';

export const createApiKeySchema = yup.object({
  type: yup
    .string()
    .oneOf(['publishable', 'secret'] as const)
    .required(),
  mode: yup
    .string()
    .oneOf(['test', 'live'] as const)
    .required(),
  label: yup.string().max(200).nullable(),
});
export type CreateApiKeyInput = yup.InferType<typeof createApiKeySchema>;
