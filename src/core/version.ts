/**
 * The version of skein, as in its package.json (a test keeps the two equal).
 *
 * @example
 * import { VERSION } from 'skein';
 * declare const footer: HTMLElement;
 * footer.textContent = `skein ${VERSION}`;
 */
export const VERSION = '0.1.0';
