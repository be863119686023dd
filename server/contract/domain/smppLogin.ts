/**
 * What fits an SMPP bind (SMPP 3.4 §4.1.1): `system_id` is 16 octets with its NUL, `password`
 * 9. The API's schemas and the logins (auth/smppLogins.ts) both hold to these.
 */
export const maxSystemIdLength = 15;
export const smppPasswordLength = 8;
