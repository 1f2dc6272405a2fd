// Meter aggregation and metered billing quantities; pure, time and data are parameters.
export * from './types';
export * from './decimal';
export * from './aggregate';
export * from './billing-quantity';
export * from './sql';
export * from './rollups';
export * from './rollup-contributions';
