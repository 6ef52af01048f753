import type { ServerConfig } from '../../examples/server/config.js';

/**
 * Builds the example server configuration the tests start: loopback, a free port, the memory
 * store, the key `k1` of tenant `t1`, and a fixed activation secret.
 */
export function testConfig(extra: Partial<ServerConfig> = {}): ServerConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    keys: [{ key: 'k1', tenant: 't1' }],
    generatedKey: false,
    mailLog: undefined,
    activationSecret: 'secret',
    ...extra,
  };
}
