import { config } from './config.js';
import { cryptoBox, isSealed, type CryptoBox } from './crypto-box.js';
import { appSecret } from './secrets.js';

let box: CryptoBox | null = null;

/**
 * The box that keeps secret settings (SMTP password, client secrets, API
 * keys) encrypted at rest. Its key comes from SETTINGS_KEY, or else from
 * APP_SECRET (or the secret generated into the data folder): the API and the
 * workers read the same configuration, so both open what either sealed.
 */
function settingsBox(): CryptoBox {
  box ??= cryptoBox(config.settingsKey || appSecret(), 'settings');
  return box;
}

/** The stored form of a secret setting: sealed, bound to its name; empty stays empty (nothing to hide). */
export function sealSetting(key: string, value: unknown): unknown {
  return typeof value === 'string' && value !== '' && !isSealed(value) ? settingsBox().seal(value, key) : value;
}

/** The clear value of a stored secret setting; a value stored before encryption comes back as it is. */
export function openSetting(key: string, stored: unknown): unknown {
  return isSealed(stored) ? settingsBox().open(stored, key) : stored;
}
