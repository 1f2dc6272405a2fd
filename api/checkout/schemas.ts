// Bodies of the checkout pages' JSON endpoints. Types only here (strict, no coercion); the
// card's content is checked by the domain (src/gateways checkCardFormat), so its messages name
// card.number, card.expiry and card.cvc.
import { yup } from '../validate';
import { text } from '../fields';

const cardSchema = yup
  .object({
    number: text(40).required(),
    exp_month: yup.number().integer('${path} must be an integer').min(0).max(99).required(),
    exp_year: yup.number().integer('${path} must be an integer').min(0).max(9999).required(),
    cvc: text(8).nullable(),
    name: text(100).nullable(),
  })
  .required()
  .noUnknown(false);

export const confirmBodySchema = yup.object({
  method: yup
    .string()
    .oneOf(['card', 'apple_pay', 'google_pay'] as const, 'method must be card, apple_pay or google_pay')
    .required(),
  email: text(254).nullable(),
  card: cardSchema,
  save_payment_method: yup.boolean().nullable(),
});
export type ConfirmBody = yup.InferType<typeof confirmBodySchema>;

export const embeddedSessionSchema = yup.object({
  client_secret: text(100).required(),
  parent_origin: text(255).required(),
});

export const embeddedConfirmSchema = confirmBodySchema.shape({
  client_secret: text(100).required(),
  parent_origin: text(255).required(),
});
