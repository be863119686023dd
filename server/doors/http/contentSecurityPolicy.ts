/**
 * The policy every page of our UI is served with, in a browser and in the desktop window alike:
 * only our own scripts, styles and API; no inline scripts, no remote code, no framing.
 * Inline styles stay allowed because React sets `style` attributes.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
