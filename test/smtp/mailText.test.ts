import { describe, expect, it } from 'vitest';
import { recipientOfAddress } from '../../server/doors/smtp/mailRecipient.js';
import { smsTextOfMail } from '../../server/doors/smtp/mailText.js';

describe('the SMS text of a mail', () => {
  const body = 'Table booked for 19:30.\n\n-- \nThe Booking System';
  it.each([
    ['body', { subject: 'Booking', text: body }, 'Table booked for 19:30.'],
    ['subject', { subject: '  Booking  ', text: body }, 'Booking'],
    ['subject_and_body', { subject: 'Booking', text: body }, 'Booking\nTable booked for 19:30.'],
    ['subject_and_body', { subject: '', text: body }, 'Table booked for 19:30.'],
    ['body', { text: 'Yes.\r\n\r\nOn Mon, 1 Jun 2026, Ann wrote:\r\n> Are we on?\r\n' }, 'Yes.'],
    ['body', { text: 'Yes.\n> quoted' }, 'Yes.'],
    // The marker's trailing space lost in transit still ends the body.
    ['body', { text: 'Hello\n--\nsig' }, 'Hello'],
    ['body', { text: 'Line one\n--not a marker' }, 'Line one\n--not a marker'],
  ] as const)('from %s of %j', (source, mail, expected) => {
    expect(smsTextOfMail(mail, { source, cutMarker: '-- ' })).toBe(expected);
  });

  it('cuts at a marker the user chose', () => {
    expect(smsTextOfMail({ text: 'Hi\n### reply above\nold' }, { source: 'body', cutMarker: '###' })).toBe(
      'Hi',
    );
  });
});

describe('the phone number of a recipient address', () => {
  it.each([
    ['+447700900123@sms.example', '+447700900123'],
    ['07700900123@anything', '+447700900123'],
    ['0044-7700-900123@x', '+447700900123'],
    ['"07700 900123"@x', '+447700900123'],
    ['+4915112345678@x', '+4915112345678'],
  ])('reads %s as %s with the default country GB', (address, phoneNumber) => {
    expect(recipientOfAddress(address, 'GB')).toEqual({ ok: true, phoneNumber });
  });

  it.each([
    ['frontdesk@example.com', /must be a phone number/],
    ['123@x', /too short/],
  ])('refuses %s with a reason', (address, reason) => {
    const read = recipientOfAddress(address, 'GB');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason).toMatch(reason);
  });

  it('refuses a national number when no default country is set', () => {
    const read = recipientOfAddress('07700900123@x', undefined);
    expect(read).toMatchObject({ ok: false });
  });
});
