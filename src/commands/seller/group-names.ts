/**
 * The seller API's groups by name (SellerGroup in the catalog; test/unit/cli/registry.test.ts
 * keeps them equal). A list of its own, so the registry and completion know the names without
 * loading the catalog.
 */
export const SELLER_GROUP_NAMES = ['app', 'licenses', 'users', 'subs', 'uservars', 'vars', 'sessions', 'files', 'webhooks', 'chats', 'blacklists', 'whitelists', 'loader', 'logs', 'team'] as const;
