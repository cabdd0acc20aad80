export * from './constants.ts';
export * from './messages.ts';
export * from './sanitize.ts';
export * from './schemas/common.ts';
export * from './schemas/auth.ts';
export * from './schemas/users.ts';
export * from './schemas/catalogs.ts';
