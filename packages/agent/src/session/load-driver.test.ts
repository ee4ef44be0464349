import { describe, expect, it } from 'vitest';
import { failsWith } from '../../../../test/support/typed-errors.js';
import { loadDriver } from './load-driver.js';
import { SessionError } from './session-error.js';

describe('loadDriver', () => {
  it('names the install command when the optional driver is not installed', async () => {
    const name = 'glimpse-no-such-driver';
    const error = await failsWith(
      loadDriver(name, '1.2.3', () => import(name)),
      SessionError,
      'E_SESSION_STORE',
    );
    expect(error.message).toBe(
      'this session store needs the optional package glimpse-no-such-driver, which is not installed: npm install glimpse-no-such-driver@1.2.3',
    );
  });

  it('passes on any other failure of the driver as it is', async () => {
    const broken = new TypeError('the driver threw while loading');
    await expect(loadDriver('pg', '8.23.1', () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it('returns the module when it is there', async () => {
    const pg = await loadDriver('pg', '8.23.1', () => import('pg'));
    expect(typeof pg.default.Pool).toBe('function');
  });
});
