import { yup } from '../../validate';
import { idField, metadataField } from '../../fields';

export const createPortalLinkSchema = yup.object({
  customer: idField().required(),
  expires_in: yup.number().integer('${path} must be an integer').min(60, '${path} must be at least 60 seconds').max(86_400, '${path} must be at most 86400 seconds').nullable(),
  reusable: yup.boolean().nullable(),
  metadata: metadataField(),
});
export type CreatePortalLinkBody = yup.InferType<typeof createPortalLinkSchema>;

export const listPortalLinksQuery = yup.object({
  customer: idField(),
});
