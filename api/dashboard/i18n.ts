// The dashboard's language, Icelandic or English, chosen like the portal's (api/portal/i18n.ts):
// `?lang=is|en` when given (remembered in the `billing_dashboard_lang` cookie), else that cookie,
// else the browser's Accept-Language (Koa's ctx.acceptsLanguages), else English. The frame
// (navigation, account bar, test banner, the language switch) and the home page are translated
// here; month names come from src/billing/calendar-day.ts (formatMonth) and amounts from
// formatAmount, which are the same in both languages for a given currency.
import type { AppContext } from '../context';
import { isPortalLocale, type PortalLocale } from '../portal/i18n';
import { BILLING_MESSAGES_EN, BILLING_MESSAGES_IS } from './messages-billing';
import { SETTINGS_MESSAGES } from './messages-settings';

export type DashboardLocale = PortalLocale;

export const LANG_COOKIE = 'billing_dashboard_lang';

export function pickDashboardLocale(ctx: AppContext): DashboardLocale {
  const asked = ctx.query.lang;
  if (isPortalLocale(asked)) {
    ctx.cookies.set(LANG_COOKIE, asked, { httpOnly: true, sameSite: 'lax', path: '/dashboard', maxAge: 365 * 86_400_000, secure: ctx.secure });
    return asked;
  }
  const remembered = ctx.cookies.get(LANG_COOKIE);
  if (isPortalLocale(remembered)) return remembered;
  const accepted = ctx.acceptsLanguages('en', 'is');
  return accepted === 'is' ? 'is' : 'en';
}

const en = {
  ...SETTINGS_MESSAGES.en,
  skip: 'Skip to content',
  menu: 'Menu',
  nav_label: 'Dashboard',
  group_billing: 'Billing',
  group_developers: 'Developers',
  group_account: 'Account',
  nav_home: 'Home',
  nav_customers: 'Customers',
  nav_subscriptions: 'Subscriptions',
  nav_invoices: 'Invoices',
  nav_credit_notes: 'Credit notes',
  nav_payments: 'Payments',
  nav_refunds: 'Refunds',
  nav_usage: 'Usage',
  nav_exports: 'Exports',
  nav_api_keys: 'API keys',
  nav_webhooks: 'Webhooks',
  nav_deliveries: 'Deliveries',
  nav_events: 'Events',
  nav_settings: 'Settings',
  nav_team: 'Team',
  nav_audit: 'Audit log',
  nav_account: 'Your account',
  data_mode: 'Data mode',
  test_data: 'Test data',
  live_data: 'Live data',
  not_live_yet: ' (not live yet)',
  switch: 'Switch',
  sign_out: 'Sign out',
  test_mode: 'Test mode',
  test_banner: 'You are looking at test data. Nothing here moves real money.',
  language: 'Language',
  other_language: 'Íslenska',
  title_suffix: 'Billing dashboard',
  // Home
  home: 'Home',
  kpi_mrr: 'MRR ({currency})',
  kpi_active: 'Subscriptions billing now',
  kpi_revenue: 'Revenue this month',
  kpi_past_due: 'Invoices past due',
  metered_note: 'MRR counts fixed-price items only: {count} subscription(s) also have usage-based or tiered items, billed by usage and not included.',
  attention: 'What needs attention',
  attention_none: 'Nothing right now: no invoice past due, no failed payment this week, no subscription past due, no failed webhook delivery.',
  past_due_since: 'past due since {date} · invoice',
  declined: 'declined',
  subscription_status: 'subscription {status}',
  chart_revenue: 'Revenue by month ({currency})',
  chart_revenue_title: 'Revenue by month',
  series_paid: 'Paid invoices',
  chart_subs: 'New and canceled subscriptions',
  series_new: 'New',
  series_canceled: 'Canceled',
  chart_failed: 'Failed payments',
  chart_failed_title: 'Failed payments by month',
  chart_past_due: 'Invoices past due ({currency})',
  chart_past_due_title: 'Invoices past due by days overdue',
  series_past_due: 'Amount past due',
  aging_0: '0–7 days',
  aging_1: '8–30 days',
  aging_2: '31–60 days',
  aging_3: 'over 60 days',
  nothing_yet: 'Nothing to show yet.',
  // Home: a failed webhook delivery in the attention panel ("Webhook delivery <id> of <type> failed: <reason>")
  att_delivery: 'Webhook delivery',
  att_delivery_failed: 'of {type} failed:',
  // The dashboard's own error pages (api/dashboard/index.tsx)
  page_not_found: 'Not found',
  page_not_found_text: 'There is no such dashboard page.',
  page_go_dashboard: 'Go to the dashboard',
  page_not_allowed: 'Not allowed',
  page_went_wrong: 'Something went wrong',
  page_not_possible: 'Not possible',
  page_error: 'Error',
  page_internal: 'Something went wrong on our side. The request id below identifies it in the logs.',
  page_request_id: 'Request id',
  page_back: 'Back to the dashboard',
  ...BILLING_MESSAGES_EN,
};

export type DashboardMessages = Record<keyof typeof en, string>;

const is: DashboardMessages = {
  ...SETTINGS_MESSAGES.is,
  skip: 'Beint í efnið',
  menu: 'Valmynd',
  nav_label: 'Stjórnborð',
  group_billing: 'Innheimta',
  group_developers: 'Forritarar',
  group_account: 'Aðgangur',
  nav_home: 'Yfirlit',
  nav_customers: 'Viðskiptavinir',
  nav_subscriptions: 'Áskriftir',
  nav_invoices: 'Reikningar',
  nav_credit_notes: 'Kreditreikningar',
  nav_payments: 'Greiðslur',
  nav_refunds: 'Endurgreiðslur',
  nav_usage: 'Notkun',
  nav_exports: 'Útflutningur',
  nav_api_keys: 'API-lyklar',
  nav_webhooks: 'Vefkrókar',
  nav_deliveries: 'Afhendingar',
  nav_events: 'Atburðir',
  nav_settings: 'Stillingar',
  nav_team: 'Teymi',
  nav_audit: 'Atvikaskrá',
  nav_account: 'Þinn aðgangur',
  data_mode: 'Gögn',
  test_data: 'Prófunargögn',
  live_data: 'Raungögn',
  not_live_yet: ' (ekki virkt enn)',
  switch: 'Skipta',
  sign_out: 'Skrá út',
  test_mode: 'Prófunarhamur',
  test_banner: 'Þú ert að skoða prófunargögn. Hér færast engir raunverulegir peningar.',
  language: 'Tungumál',
  other_language: 'English',
  title_suffix: 'Stjórnborð innheimtu',
  home: 'Yfirlit',
  kpi_mrr: 'Mánaðartekjur ({currency})',
  kpi_active: 'Áskriftir í innheimtu',
  kpi_revenue: 'Tekjur í þessum mánuði',
  kpi_past_due: 'Reikningar í vanskilum',
  metered_note: 'Mánaðartekjur telja aðeins liði á föstu verði: {count} áskrift(ir) hafa líka notkunar- eða þrepaverð, innheimt eftir notkun og ekki talið með.',
  attention: 'Það sem þarf að sinna',
  attention_none: 'Ekkert núna: enginn reikningur í vanskilum, engin greiðsla hafnaði í vikunni, engin áskrift í vanskilum, engin vefkróksending brást.',
  past_due_since: 'í vanskilum frá {date} · reikningur',
  declined: 'hafnað',
  subscription_status: 'áskrift {status}',
  chart_revenue: 'Tekjur eftir mánuðum ({currency})',
  chart_revenue_title: 'Tekjur eftir mánuðum',
  series_paid: 'Greiddir reikningar',
  chart_subs: 'Nýjar og uppsagðar áskriftir',
  series_new: 'Nýjar',
  series_canceled: 'Uppsagðar',
  chart_failed: 'Hafnaðar greiðslur',
  chart_failed_title: 'Hafnaðar greiðslur eftir mánuðum',
  chart_past_due: 'Reikningar í vanskilum ({currency})',
  chart_past_due_title: 'Reikningar í vanskilum eftir dögum',
  series_past_due: 'Upphæð í vanskilum',
  aging_0: '0–7 dagar',
  aging_1: '8–30 dagar',
  aging_2: '31–60 dagar',
  aging_3: 'yfir 60 daga',
  nothing_yet: 'Ekkert að sýna enn.',
  att_delivery: 'Afhending vefkróks',
  att_delivery_failed: '({type}) mistókst:',
  page_not_found: 'Síðan fannst ekki',
  page_not_found_text: 'Engin slík síða er í stjórnborðinu.',
  page_go_dashboard: 'Fara á stjórnborðið',
  page_not_allowed: 'Ekki leyft',
  page_went_wrong: 'Eitthvað fór úrskeiðis',
  page_not_possible: 'Ekki hægt',
  page_error: 'Villa',
  page_internal: 'Eitthvað fór úrskeiðis hjá okkur. Auðkenni beiðninnar hér fyrir neðan vísar á hana í atvikaskránni.',
  page_request_id: 'Auðkenni beiðnar',
  page_back: 'Aftur á stjórnborðið',
  ...BILLING_MESSAGES_IS,
};

export const DASHBOARD_MESSAGES: Readonly<Record<DashboardLocale, DashboardMessages>> = { en, is };

export function fillText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
