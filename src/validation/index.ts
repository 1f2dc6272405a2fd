// Pure field validators shared by the API schemas and domain code; no I/O.
export * from './kennitala';
export * from './country';
export * from './email';
export * from './metadata';
export * from './storable-text';
