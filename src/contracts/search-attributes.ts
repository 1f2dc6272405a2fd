// Custom search attributes that make the Temporal UI's list views usable for operators:
// filter by merchant, mode, customer and business status, e.g.
//   BillingMerchantId = "merch_…" AND BillingStatus = "past_due"
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const SA_MERCHANT = defineSearchAttributeKey('BillingMerchantId', SearchAttributeType.KEYWORD);
export const SA_MODE = defineSearchAttributeKey('BillingMode', SearchAttributeType.KEYWORD);
export const SA_CUSTOMER = defineSearchAttributeKey('BillingCustomerId', SearchAttributeType.KEYWORD);
export const SA_STATUS = defineSearchAttributeKey('BillingStatus', SearchAttributeType.KEYWORD);

export const CUSTOM_SEARCH_ATTRIBUTES = [SA_MERCHANT, SA_MODE, SA_CUSTOMER, SA_STATUS] as const;
