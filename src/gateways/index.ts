// Outside-system adapters: the card acquirer and Icelandic bank claims, each an interface with
// a test-mode simulator and a live mode that fails clearly until configured.
// docs/gateways.md describes the contract; docs/test-cards.md the simulator's cards.
export type * from './card-acquirer';
export type * from './bank-claims';
export * from './errors';
export * from './config';
export { normalizeCardNumber, luhnValid, detectBrand, isExpired, normalizeExpYear, checkCardFormat, type CardFormatInput, type CardFormatResult } from './cards';
export { TEST_CARDS, findTestCard, type TestCard, type TestCardBehaviour } from './test-cards';
export { CardSimulator, decideCharge, CARD_BEHAVIOUR_OVERRIDES, type CardBehaviourOverride, type SimulatedCharge, type SimulatedRefund } from './card-simulator';
export { BankClaimsSimulator, claimStatusAt, simulatedBankReference, REFUSED_KENNITOLUR, MAX_CLAIM_AMOUNT } from './bank-claims-simulator';
export { planSimulatorFault, clearSimulatorFaults, plannedFaults, FAULT_KINDS, FAULT_OPERATIONS, type FaultKind, type FaultOperation, type PlannedFault } from './simulator-faults';
export { UnconfiguredCardAcquirer, UnconfiguredBankClaims } from './unconfigured';
export { createGateways, createCardAcquirer, createBankClaims, type Gateways, type TestGateways, type GatewayOptions } from './factory';
export { createModeGateways, type ModeGateways } from './mode-gateways';
