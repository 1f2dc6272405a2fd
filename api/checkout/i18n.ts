// Checkout texts in Icelandic and English. The locale is the session's `locale` when it names
// one of these, otherwise the browser's Accept-Language, otherwise English (docs/checkout.md).

export const CHECKOUT_LOCALES = ['is', 'en'] as const;
export type CheckoutLocale = (typeof CHECKOUT_LOCALES)[number];

const en = {
  title: 'Checkout',
  test_mode: 'Test mode',
  total: 'Total',
  pay_with_wallet: 'Express checkout',
  or_card: 'Or pay with card',
  pay_with_card: 'Pay with card',
  email: 'Email',
  card_number: 'Card number',
  expiry: 'Expiry (MM/YY)',
  cvc: 'Security code (CVC)',
  name: 'Name on card',
  save_card: 'Save this card for future payments',
  pay: 'Pay',
  processing: 'Processing…',
  cancel: 'Cancel and return',
  secure_note: 'Card details go straight to the payment service; the merchant never sees them.',
  wallet_sheet_title: 'Simulated wallet (test mode)',
  wallet_sheet_help: 'Test mode: choose a test card to pay with.',
  wallet_confirm: 'Confirm payment',
  wallet_back: 'Back',
  wallet_card_ok: 'Visa •••• 4242 (succeeds)',
  wallet_card_declined: 'Visa •••• 0002 (declined)',
  wallet_card_funds: 'Visa •••• 9995 (insufficient funds)',
  err_email: 'Enter a valid email address.',
  err_number: 'Enter a valid card number.',
  err_expiry: 'Enter a valid expiry date (MM/YY).',
  err_expired: 'This card has expired.',
  err_cvc: 'Enter the card security code.',
  decline_card_declined: 'Your card was declined. Try another card.',
  decline_insufficient_funds: 'Your card has insufficient funds. Try another card.',
  decline_expired_card: 'Your card has expired. Try another card.',
  decline_incorrect_cvc: 'The security code is incorrect. Check it and try again.',
  decline_invalid_cvc: 'The security code is incorrect. Check it and try again.',
  decline_invalid_number: 'The card number is incorrect.',
  decline_invalid_expiry: 'The expiry date is incorrect.',
  decline_processing_error: 'The card could not be processed. Try again.',
  decline_generic: 'The payment was declined. Try another card.',
  error_generic: 'Something went wrong. Please try again.',
  error_unavailable: 'Card payments are not available right now. Please try again later.',
  error_closed: 'This payment can no longer be made here.',
  complete_title: 'Payment received',
  complete_body: 'Thank you, your payment has been received.',
  redirecting: 'Taking you back to the store…',
  continue: 'Continue',
  expired_title: 'This checkout has expired',
  expired_body: 'Ask the merchant for a new payment link.',
  closed_title: 'This payment is closed',
  closed_body: 'This payment can no longer be made. Ask the merchant for a new payment link.',
  not_found_title: 'Checkout not found',
  not_found_body: 'Check the link or ask the merchant for a new one.',
  loading: 'Loading…',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

const is: Messages = {
  title: 'Greiðsla',
  test_mode: 'Prófunarhamur',
  total: 'Samtals',
  pay_with_wallet: 'Greiða með veski',
  or_card: 'Eða greiddu með korti',
  pay_with_card: 'Greiða með korti',
  email: 'Netfang',
  card_number: 'Kortanúmer',
  expiry: 'Gildistími (MM/ÁÁ)',
  cvc: 'Öryggiskóði (CVC)',
  name: 'Nafn korthafa',
  save_card: 'Vista kortið fyrir næstu greiðslur',
  pay: 'Greiða',
  processing: 'Augnablik…',
  cancel: 'Hætta við og fara til baka',
  secure_note: 'Kortaupplýsingar fara beint til greiðsluþjónustunnar; seljandinn sér þær aldrei.',
  wallet_sheet_title: 'Hermt veski (prófunarhamur)',
  wallet_sheet_help: 'Prófunarhamur: veldu prófunarkort til að greiða með.',
  wallet_confirm: 'Staðfesta greiðslu',
  wallet_back: 'Til baka',
  wallet_card_ok: 'Visa •••• 4242 (tekst)',
  wallet_card_declined: 'Visa •••• 0002 (hafnað)',
  wallet_card_funds: 'Visa •••• 9995 (ónóg innistæða)',
  err_email: 'Sláðu inn gilt netfang.',
  err_number: 'Sláðu inn gilt kortanúmer.',
  err_expiry: 'Sláðu inn gildan gildistíma (MM/ÁÁ).',
  err_expired: 'Kortið er útrunnið.',
  err_cvc: 'Sláðu inn öryggiskóða kortsins.',
  decline_card_declined: 'Kortinu var hafnað. Reyndu annað kort.',
  decline_insufficient_funds: 'Ekki er næg innistæða á kortinu. Reyndu annað kort.',
  decline_expired_card: 'Kortið er útrunnið. Reyndu annað kort.',
  decline_incorrect_cvc: 'Öryggiskóðinn er rangur. Athugaðu hann og reyndu aftur.',
  decline_invalid_cvc: 'Öryggiskóðinn er rangur. Athugaðu hann og reyndu aftur.',
  decline_invalid_number: 'Kortanúmerið er rangt.',
  decline_invalid_expiry: 'Gildistíminn er rangur.',
  decline_processing_error: 'Ekki tókst að vinna úr kortinu. Reyndu aftur.',
  decline_generic: 'Greiðslunni var hafnað. Reyndu annað kort.',
  error_generic: 'Eitthvað fór úrskeiðis. Reyndu aftur.',
  error_unavailable: 'Kortagreiðslur eru ekki í boði í augnablikinu. Reyndu aftur síðar.',
  error_closed: 'Ekki er lengur hægt að greiða þessa greiðslu hér.',
  complete_title: 'Greiðsla móttekin',
  complete_body: 'Takk fyrir, greiðslan hefur borist.',
  redirecting: 'Þú ert send/ur aftur til seljandans…',
  continue: 'Halda áfram',
  expired_title: 'Þessi greiðslusíða er útrunnin',
  expired_body: 'Biddu seljandann um nýjan greiðsluhlekk.',
  closed_title: 'Þessari greiðslu er lokið',
  closed_body: 'Ekki er lengur hægt að greiða þessa greiðslu. Biddu seljandann um nýjan greiðsluhlekk.',
  not_found_title: 'Greiðslusíða fannst ekki',
  not_found_body: 'Athugaðu hlekkinn eða biddu seljandann um nýjan.',
  loading: 'Hleð…',
};

export const MESSAGES: Readonly<Record<CheckoutLocale, Messages>> = { en, is };

function primary(tag: string): string {
  return tag.trim().split('-')[0]!.toLowerCase();
}

function supported(tag: string): CheckoutLocale | null {
  const p = primary(tag);
  return (CHECKOUT_LOCALES as readonly string[]).includes(p) ? (p as CheckoutLocale) : null;
}

/** The request's Accept-Language negotiation: Koa's ctx.acceptsLanguages (q-values, then header order). */
export interface AcceptsLanguages {
  acceptsLanguages(...langs: string[]): string | false;
}

/**
 * The browser's preferred supported language, or null when it accepts none of them. English is
 * offered first, so a request without Accept-Language (or with `*`) gets English.
 */
export function localeFromRequest(ctx: AcceptsLanguages): CheckoutLocale | null {
  const accepted = ctx.acceptsLanguages('en', 'is');
  return accepted === false ? null : (accepted as CheckoutLocale);
}

export function pickLocale(sessionLocale: string | null | undefined, ctx: AcceptsLanguages): CheckoutLocale {
  return (sessionLocale ? supported(sessionLocale) : null) ?? localeFromRequest(ctx) ?? 'en';
}
